package diff

// Status is what a diff does to a file.
type Status string

// The file statuses git reports.
const (
	Added    Status = "added"
	Modified Status = "modified"
	Deleted  Status = "deleted"
	Renamed  Status = "renamed"
	Copied   Status = "copied"
)

// Range is an inclusive, 1-based line range.
type Range struct{ Start, End int }

// Hunk is one hunk of a file's diff.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	// Text is the hunk as git printed it, header line included.
	Text string
}

// File is one file of a diff.
type File struct {
	// OldPath and NewPath are slash-separated and relative to the
	// repository root; OldPath is empty for added files and NewPath for
	// deleted ones.
	OldPath, NewPath string
	Status           Status
	// Binary is true for files git reports as binary; they have no hunks.
	Binary bool
	// Added lists the new-side lines the diff adds or replaces.
	Added []Range
	// Deleted lists the old-side lines the diff removes or replaces.
	Deleted []Range
	Hunks   []Hunk
}
