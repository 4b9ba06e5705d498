//go:build ignore

package main

func IgnoredFunc() {}
