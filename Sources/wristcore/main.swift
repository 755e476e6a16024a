print("wristcore: under construction")
