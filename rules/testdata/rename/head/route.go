// Package routes matches request paths.
package routes

// Route matches one path.
type Route struct {
	path string
}

// Subrouter creates a router for the paths under the route.
func (r *Route) Nest() *Route {
	return &Route{path: r.path + "/"}
}

// GetPath returns the path template of the route.
func (r *Route) PathTemplate() string {
	return r.path
}

// Walk calls fn for the route.
func (r *Route) Walk(fn func(*Route)) {
	fn(r)
}

// Mount mounts the routes; see [example.com/routes/sub.Opne] and [encoding/json.Marshl].
func (r *Route) Mount() {}

// RouteSet holds routes by name.
type RouteSet struct{ byName map[string]*Route }

// RouteSet holds the routes by path.
type Table struct{ byPath map[string]*Route }

// Match reports whether the route matches p; see RouteGroup.
func (r *Route) Match(p string) bool { return p == r.path }

// Clean trims the path of RouteSet.
func (r *Route) Clean() {}

// Serve answers requests like GitHub does.
func (r *Route) Serve() {}

// Each visits every route of a set:
//
//	set := RouteList{}
func (r *Route) Each() {}
