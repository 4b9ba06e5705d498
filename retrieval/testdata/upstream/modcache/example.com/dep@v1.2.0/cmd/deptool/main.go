// Command deptool is a main package.
package main

// Tool is in a main package.
func Tool() {}

func main() {}
