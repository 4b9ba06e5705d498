package testdata

// Fixture is test data.
func Fixture() {}
