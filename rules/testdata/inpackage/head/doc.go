// Package flow builds graphs of steps; see package graph.
package flow
