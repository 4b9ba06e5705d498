// Package routes matches request paths.
package routes

// Route matches one path.
type Route struct {
	path string
}

// Subrouter creates a router for the paths under the route.
func (r *Route) Subrouter() *Route {
	return &Route{path: r.path + "/"}
}

// GetPath returns the path template of the route.
func (r *Route) GetPath() string {
	return r.path
}

// Walk calls fn for the route.
func (r *Route) Walk(fn func(*Route)) {
	fn(r)
}

// Mount mounts the routes; see [example.com/routes/sub.Open].
func (r *Route) Mount() {}
