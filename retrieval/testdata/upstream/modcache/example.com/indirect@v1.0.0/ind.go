package indirect

// Indirect is in an indirect requirement.
func Indirect() {}
