// Package graph builds and runs graphs of named steps.
package graph

import "context"

// START and END are the graph's entry and exit.
const (
	START = "start"
	END   = "end"
)

// Graph is a graph under construction.
type Graph struct{ edges map[string]string }

// NewGraph returns an empty graph.
func NewGraph() *Graph { return &Graph{edges: map[string]string{}} }

// AddEdge adds an edge from one step to another.
func (g *Graph) AddEdge(from, to string) error {
	g.edges[from] = to
	return nil
}

// Compile checks the graph and returns what runs it.
func (g *Graph) Compile(ctx context.Context) (*Runnable, error) { return &Runnable{g: g}, nil }

// Runnable runs a compiled graph.
type Runnable struct{ g *Graph }

// Invoke runs the graph on one input.
func (r *Runnable) Invoke(ctx context.Context, input string) (string, error) { return input, nil }

// Wrap returns a graph named after s.
func Wrap(s string) *Graph { return &Graph{edges: map[string]string{s: s}} }

// Source returns the name the graph was wrapped from.
//
//	g := graph.Wrap(s)
//	fmt.Println(g.Source())
func (s *Graph) Source() string {
	for k := range s.edges {
		return k
	}
	return ""
}

// Chain starts a graph of one edge.
//
//	g := NewGraph()
//	g.AddEdge(START, graph.END)
func Chain() *Graph {
	g := NewGraph()
	_ = g.AddEdge(START, END)
	return g
}

// Verify checks an input against the graph. In a router of your own:
//
//	r.GET("/verify", func(w http.ResponseWriter, req *http.Request) {
//		out, err := graphRunner.Verify(req.URL.Query().Get("in"))
//		fmt.Fprintln(w, out, err)
//	})
func (r *Runnable) Verify(input string) (string, error) { return input, nil }
