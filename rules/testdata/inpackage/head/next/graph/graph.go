// Package graph is the next version of graph, a wrapper of the first.
package graph

import "example.com/flow/graph"

// Graph wraps the first version's graph.
type Graph graph.Graph

// NewGraph returns an empty graph.
func NewGraph() *Graph { return (*Graph)(graph.NewGraph()) }

// Describe names the graph.
func (g *Graph) Describe() string { return "graph" }
