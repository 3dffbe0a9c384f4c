//go:build unix

package rewrite

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCoalescedBoundWrittenByAnotherBlock runs testdata/stall/review13bound
// (not in testdata/src: which pairs it reports is the schedule's, so the
// soundness guard, on every thread, cannot compare two runs) with its reports written to a full pipe that is drained only after a
// while, on one thread. Iteration 0's check of its write of p.n reports
// (against iteration 3's read) and blocks in that write, holding the
// reporter; the one P goes to iteration 1, whose check of its read of p.n
// waits for the reporter; when the pipe drains, iteration 0 doubles p.n
// and iteration 1 reads the doubled bound, so its chunk u[8:16] overlaps
// iteration 3's u[12:16]. The element-wise build reports that pair (the
// test fails if it does not: the schedule was not forced), and the pruned
// build must too. It did not when the loop's checks were coalesced: they
// spanned u[4:8], from p.n read before the loop, and the loop wrote
// u[8:16] unchecked (CI, session 12: sound_review2_guard_paths, once).
func TestCoalescedBoundWrittenByAnotherBlock(t *testing.T) {
	t.Parallel()
	dir := "testdata/stall/review13bound"
	var got [2][]string
	for k, cfg := range []Config{{}, {Conservative: true, Elementwise: true}} {
		work, overlay := writeRewrite(t, dir, cfg)
		got[k] = stalledReports(t, build(t, dir, work, overlay), time.Second)
	}
	overlap := false
	for _, p := range got[1] {
		overlap = overlap || p == reviewBoundU+" ~ "+reviewBoundU
	}
	if !overlap {
		t.Fatalf("the element-wise build did not report the overlap of iterations 1 and 3 on u: the stalled reporter no longer forces the schedule\n%s", strings.Join(got[1], "\n"))
	}
	same(t, got)
}

// reviewBoundU is the write of u[i] in review13bound, as reported.
var reviewBoundU = func() string {
	abs, _ := os.Getwd()
	return abs + "/testdata/stall/review13bound/main.go:24:5"
}()

// stalledReports runs exe once on one thread, its standard error a pipe
// filled before it starts and drained only after stall, and returns the
// site pairs it reported. The first report blocks the goroutine that
// makes it, holding the reporter, until the pipe drains; meanwhile the
// other goroutines run until they wait for the reporter too.
func stalledReports(t *testing.T, exe string, stall time.Duration) []string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fill(t, w)
	cmd := exec.Command(exe)
	cmd.Stderr = w
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "GODEBUG=asyncpreemptoff=1", "GOANOMALY=format=json exitcode=0")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	time.Sleep(stall)
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	addPairs(set, out)
	return sortedPairs(set)
}

// fill writes newlines to the pipe w until it holds no more. The pipe is
// non-blocking on this side: a write of more than the pipe's atomic size
// writes what fits, and fails with EAGAIN only when nothing does. (A
// deadline on w.Write instead failed on a loaded machine: it had expired
// before the first write.)
func fill(t *testing.T, w *os.File) {
	t.Helper()
	rc, err := w.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	filler := bytes.Repeat([]byte("\n"), 1<<20)
	total, werr := 0, error(nil)
	err = rc.Write(func(fd uintptr) bool {
		if werr = syscall.SetNonblock(int(fd), true); werr != nil {
			return true
		}
		for {
			n, err := syscall.Write(int(fd), filler)
			total += max(n, 0)
			if err != nil {
				if err != syscall.EAGAIN {
					werr = err
				}
				return true
			}
		}
	})
	if err != nil || werr != nil || total == 0 {
		t.Fatalf("filling the pipe: wrote %d bytes, %v, %v", total, err, werr)
	}
}
