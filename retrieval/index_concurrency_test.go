package retrieval

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

func TestIndexConcurrentReadersAndWriter(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "idx")
	v1, v2 := indexRepoV1(), indexRepoV2()
	built := indexMustBuild(t, v1, indexFiles(v1), IndexOptions{Dir: dir, Commit: "c1"})
	readers := []*Index{built}
	for range 2 {
		ix, err := OpenIndex(t.Context(), dir)
		if err != nil {
			t.Fatalf("OpenIndex beside another reader: %v", err)
		}
		defer ix.Close()
		readers = append(readers, ix)
	}

	// Searches on every reader from several goroutines while a writer moves
	// the directory to other commits: each reader keeps its commit's view.
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	stop := make(chan struct{})
	for i := range 6 {
		ix := readers[i%len(readers)]
		wg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					if n == 0 {
						errs <- errors.New("reader never searched")
					}
					return
				default:
				}
				hits, err := ix.Search(t.Context(), Query{Text: "Purge sweeper"})
				if err != nil {
					errs <- err
					return
				}
				if len(hits) != 2 {
					errs <- fmt.Errorf("reader of c1 found %v, want b.go and gone.txt", indexHitIDs(hits))
					return
				}
				if _, err := ix.AllChunks(t.Context()); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for i, fsys := range []indexFS{{v2, "c2"}, {v1, "c3"}, {v2, "c4"}} {
		ix, err := BuildIndex(t.Context(), fsys.fs, indexFiles(fsys.fs), IndexOptions{Dir: dir, Commit: fsys.commit})
		if err != nil {
			t.Fatalf("update %d while readers search: %v", i, err)
		}
		if ix.Commit() != fsys.commit {
			t.Errorf("Commit = %q, want %s", ix.Commit(), fsys.commit)
		}
		_ = ix.Close()
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	now, err := OpenIndex(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer now.Close()
	if hits, err := now.Search(t.Context(), Query{Text: "Purge sweeper"}); err != nil || len(hits) != 0 {
		t.Errorf("reader opened after the updates: %v, %v; want no hits at c4", err, indexHitIDs(hits))
	}
}

// indexFS is a repository at a commit.
type indexFS struct {
	fs     fstest.MapFS
	commit string
}

func TestIndexLocks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "idx")
	v1 := indexRepoV1()
	indexMustBuild(t, v1, indexFiles(v1), IndexOptions{Dir: dir, Commit: "c1"}).Close()

	t.Run("readers share", func(t *testing.T) {
		unlock, err := indexLock(t.Context(), dir+".lock", false)
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		defer cancel()
		ix, err := OpenIndex(ctx, dir)
		if err != nil {
			t.Fatalf("OpenIndex while another reader holds the lock: %v", err)
		}
		_ = ix.Close()
	})
	t.Run("a writer waits for a writer, a reader for a writer", func(t *testing.T) {
		unlock, err := indexLock(t.Context(), dir+".lock", true)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		defer cancel()
		if _, err := BuildIndex(ctx, v1, indexFiles(v1), IndexOptions{Dir: dir, Commit: "c2"}); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("BuildIndex while locked: err = %v, want context.DeadlineExceeded", err)
		}
		if _, err := OpenIndex(ctx, dir); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("OpenIndex while locked: err = %v, want context.DeadlineExceeded", err)
		}

		// Once the lock is released, a waiting writer proceeds.
		done := make(chan error, 1)
		go func() {
			ix, err := BuildIndex(t.Context(), v1, indexFiles(v1), IndexOptions{Dir: dir, Commit: "c2"})
			if err == nil {
				err = ix.Close()
			}
			done <- err
		}()
		time.Sleep(50 * time.Millisecond)
		unlock()
		if err := <-done; err != nil {
			t.Errorf("BuildIndex after the lock was released: %v", err)
		}
	})
}

// The helper process of TestIndexAcrossProcesses: with
// DOCREVIEW_INDEX_HELPER set, it acts on DOCREVIEW_INDEX_DIR and talks
// over stdin and stdout.
func TestIndexHelperProcess(t *testing.T) {
	mode := os.Getenv("DOCREVIEW_INDEX_HELPER")
	if mode == "" {
		t.Skip("helper process for TestIndexAcrossProcesses")
	}
	dir := os.Getenv("DOCREVIEW_INDEX_DIR")
	in := bufio.NewScanner(os.Stdin)
	switch mode {
	case "reader":
		// Open, search, and search again on request.
		ix, err := OpenIndex(t.Context(), dir)
		if err != nil {
			fmt.Println("error", err)
			return
		}
		defer ix.Close()
		for {
			hits, err := ix.Search(t.Context(), Query{Text: "Purge"})
			if err != nil {
				fmt.Println("error", err)
				return
			}
			fmt.Println("hits", len(hits), ix.Commit())
			if !in.Scan() {
				return
			}
		}
	case "writer-lock":
		// Hold the writer's lock until stdin closes.
		unlock, err := indexLock(t.Context(), dir+".lock", true)
		if err != nil {
			fmt.Println("error", err)
			return
		}
		fmt.Println("locked")
		for in.Scan() {
		}
		unlock()
	}
}

// indexHelper is a running helper process.
type indexHelper struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startIndexHelper(t *testing.T, mode, dir string) *indexHelper {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestIndexHelperProcess$")
	cmd.Env = append(os.Environ(), "DOCREVIEW_INDEX_HELPER="+mode, "DOCREVIEW_INDEX_DIR="+dir)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &indexHelper{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	t.Cleanup(func() { h.stop(t) })
	return h
}

// line returns the helper's next line of output.
func (h *indexHelper) line(t *testing.T) string {
	t.Helper()
	if !h.out.Scan() {
		t.Fatalf("helper ended: %v", h.out.Err())
	}
	return h.out.Text()
}

func (h *indexHelper) stop(t *testing.T) {
	if h.in == nil {
		return
	}
	_ = h.in.Close()
	h.in = nil
	for h.out.Scan() {
	}
	if err := h.cmd.Wait(); err != nil {
		t.Errorf("helper: %v", err)
	}
}

func TestIndexAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := filepath.Join(t.TempDir(), "idx")
	v1, v2 := indexRepoV1(), indexRepoV2()
	indexMustBuild(t, v1, indexFiles(v1), IndexOptions{Dir: dir, Commit: "c1"}).Close()

	// Another process reads; this one reads too, then updates the index.
	reader := startIndexHelper(t, "reader", dir)
	if got := reader.line(t); got != "hits 1 c1" {
		t.Fatalf("reader process: %q, want hits 1 c1", got)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	ix, err := OpenIndex(ctx, dir)
	if err != nil {
		t.Fatalf("OpenIndex beside a reader process: %v", err)
	}
	_ = ix.Close()
	ix, err = BuildIndex(ctx, v2, indexFiles(v2), IndexOptions{Dir: dir, Commit: "c2"})
	if err != nil {
		t.Fatalf("BuildIndex beside a reader process: %v", err)
	}
	_ = ix.Close()
	if _, err := io.WriteString(reader.in, "again\n"); err != nil {
		t.Fatal(err)
	}
	if got := reader.line(t); got != "hits 1 c1" {
		t.Errorf("reader process after the update: %q, want its view of c1 kept", got)
	}
	reader.stop(t)

	// Another process holds the writer's lock: this one waits.
	locker := startIndexHelper(t, "writer-lock", dir)
	if got := locker.line(t); got != "locked" {
		t.Fatalf("locker process: %q", got)
	}
	short, cancelShort := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancelShort()
	if _, err := BuildIndex(short, v1, indexFiles(v1), IndexOptions{Dir: dir, Commit: "c3"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("BuildIndex while another process writes: err = %v, want context.DeadlineExceeded", err)
	}
	if _, err := OpenIndex(short, dir); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("OpenIndex while another process writes: err = %v, want context.DeadlineExceeded", err)
	}
	locker.stop(t)
	ix, err = OpenIndex(ctx, dir)
	if err != nil {
		t.Fatalf("OpenIndex after the writer process ended: %v", err)
	}
	defer ix.Close()
	if ix.Commit() != "c2" {
		t.Errorf("Commit = %q, want c2", ix.Commit())
	}
}
