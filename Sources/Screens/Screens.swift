// Screens: placeholder; see docs/architecture.md.
