package upper

// Hello greets; its module path has an upper-case letter.
func Hello() string { return "hello" }
