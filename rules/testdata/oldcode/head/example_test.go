package app_test

import (
	"example.com/app/v3"
	"google.golang.org/grpc/status"
)

// Example_recovery builds an error with a package of another module.
func Example_recovery() {
	err := status.Errorf(1, "panic: %v", "x")
	_ = err
	_ = app.New()
}
