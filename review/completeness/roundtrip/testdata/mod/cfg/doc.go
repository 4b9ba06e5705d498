// Package cfg reads the settings of a small network service.
package cfg
