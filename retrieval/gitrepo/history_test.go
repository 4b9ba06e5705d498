package gitrepo

import (
	"context"
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

	repo, err := Open(context.Background(), r.dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		want   string // the commit's SHA, "" for none
		reason string
	}{
		{"Flush", removeFlush, "a func removed while a comment still names it"},
		{"Store.Purge", removePurge, "a method removed"},
		{"Purge", "", "a receiver-less name is not a func declaration"},
		{"MaxItems", "", "still declared: later commits only use it"},
		{"Renamed", "", "only ever added"},
		{"Nothing", "", "never existed"},
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
			if ok && (c.Date != "2024-01-02" || c.Subject == "" || len(c.Short()) != 12) {
				t.Errorf("commit %+v: want date 2024-01-02, a subject and a 12-digit short SHA", c)
			}
		})
	}
	if _, _, err := repo.RemovedIn(t.Context(), "--all", "Flush"); err == nil {
		t.Error("RemovedIn with an option as revision: want an error")
	}
}
