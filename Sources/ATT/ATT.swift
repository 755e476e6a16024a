// ATT: placeholder until its issue lands; see docs/architecture.md.
