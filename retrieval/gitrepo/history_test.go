package gitrepo

import (
	"context"
	"slices"
	"testing"
)

func TestRemovedIn(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("store.go", "package store\n\ntype Store struct{ n int }\n\nfunc (s *Store) Purge() {}\n\nfunc Flush() {}\n\nconst MaxItems = 10\n")
	r.write("README.md", "Call Flush.\n")
	r.commit("add store")
	r.write("store.go", "package store\n\ntype Store struct{ n int }\n\nfunc (s *Store) Purge() {}\n\n// Flush is gone; Purge replaces it.\n\nconst MaxItems = 10\n")
	removeFlush := r.commit("drop Flush")
	r.write("store.go", "package store\n\ntype Store struct{ n int }\n\nconst MaxItems = 10\n")
	removePurge := r.commit("drop Store.Purge")
	r.write("store.go", "package store\n\ntype Store struct{ n int }\n\nconst MaxItems = 10\n\nfunc use() { _ = MaxItems }\n")
	r.commit("use MaxItems")
	r.write("other.go", "package store\n\nfunc Renamed() {}\n")
	r.commit("add Renamed")
	r.write("hold.go", "package store\n\nfunc Reserve(n int) {}\n\nfunc (s *Store) Count() int { return s.n }\n")
	r.commit("add Reserve and Count")
	r.write("hold.go", "package store\n\nfunc Hold(n int) {}\n\nfunc Other() {}\n\nfunc (s *Store) Len() int { return s.n }\n")
	renames := r.commit("rename Reserve to Hold, Count to Len")

	repo, err := Open(context.Background(), r.dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		want   string // the commit's SHA, "" for none
		added  []string
		reason string
	}{
		{"Flush", removeFlush, nil, "a func removed while a comment still names it"},
		{"Store.Purge", removePurge, nil, "a method removed"},
		{"Reserve", renames, []string{"Hold"}, "renamed: Other has no parameter, Reserve one"},
		{"Store.Count", renames, []string{"Store.Len"}, "a method renamed"},
		{"Purge", "", nil, "a receiver-less name is not a func declaration"},
		{"MaxItems", "", nil, "still declared: later commits only use it"},
		{"Renamed", "", nil, "only ever added"},
		{"Nothing", "", nil, "never existed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok, err := repo.RemovedIn(t.Context(), "HEAD", tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if got := map[bool]string{true: c.SHA}[ok]; got != tt.want {
				t.Errorf("RemovedIn(%q) = %q (%s), want %q: %s", tt.name, got, c.Subject, tt.want, tt.reason)
			}
			if !slices.Equal(c.Added, tt.added) {
				t.Errorf("RemovedIn(%q).Added = %q, want %q", tt.name, c.Added, tt.added)
			}
			if ok && (c.Date != "2024-01-02" || c.Subject == "" || len(c.Short()) != 12) {
				t.Errorf("commit %+v: want date 2024-01-02, a subject and a 12-digit short SHA", c)
			}
		})
	}
	if _, _, err := repo.RemovedIn(t.Context(), "--all", "Flush"); err == nil {
		t.Error("RemovedIn with an option as revision: want an error")
	}
}
