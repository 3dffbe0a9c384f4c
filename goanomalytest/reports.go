package goanomalytest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// jsonReport is one line of a checked program's GOANOMALY=format=json
// output: a report (rt/format.go's jsonReport) or the closing summary.
type jsonReport struct {
	Kind    string          `json:"kind"`
	Class   string          `json:"class"`
	Sink    *jsonAccess     `json:"sink"`
	Source  *jsonAccess     `json:"source"`
	Summary json.RawMessage `json:"summary"`
}

// jsonAccess is one side of a report.
type jsonAccess struct {
	Pos  string `json:"pos"`
	What string `json:"what"`
}

// access is one side of a conflict: a read or a write of what at pos
// (file:line:col, as the program printed it).
type access struct{ op, pos, what string }

// conflict is a report without its order: the class (DATA RACE or
// NONDETERMINISM) and its two accesses, sorted. The runtime reports the
// access that ran second as the sink, so one pair of sites can be reported
// as WRITE-READ in one schedule and as READ-WRITE in another (in one run
// too, by different iterations); as a conflict it is one.
type conflict struct {
	class string
	a, b  access
}

// output is what goanomaly printed in one command's output: the distinct
// conflicts in the order first reported, and whether it printed anything
// of its JSON at all (a summary, or a report before halt_on_error's exit).
type output struct {
	conflicts []conflict
	seen      bool
}

// parseOutput reads the JSON lines goanomaly printed in out, skipping the
// program's own output. A report may follow output the program left
// without a newline on the same stream, so it is looked for anywhere in a
// line. Lines of go test -json (test2json events) are read through their
// Output field.
func parseOutput(out []byte) (output, error) {
	var o output
	have := map[conflict]bool{}
	for line := range bytes.Lines(out) {
		if ev := (struct{ Action, Output string }{}); bytes.HasPrefix(line, []byte(`{"`)) &&
			json.Unmarshal(line, &ev) == nil && ev.Action == "output" {
			line = []byte(ev.Output)
		}
		i := bytes.Index(line, []byte(`{"kind":`))
		if j := bytes.Index(line, []byte(`{"summary":`)); i < 0 || j >= 0 && j < i {
			i = j
		}
		if i < 0 {
			continue
		}
		var r jsonReport
		if err := json.NewDecoder(bytes.NewReader(line[i:])).Decode(&r); err != nil {
			return o, fmt.Errorf("cannot read goanomaly's report %s: %v", bytes.TrimSpace(line[i:]), err)
		}
		if r.Summary != nil {
			o.seen = true
			continue
		}
		c, err := r.conflict()
		if err != nil {
			return o, fmt.Errorf("cannot read goanomaly's report %s: %v", bytes.TrimSpace(line[i:]), err)
		}
		o.seen = true
		if !have[c] {
			have[c] = true
			o.conflicts = append(o.conflicts, c)
		}
	}
	return o, nil
}

// conflict returns the report as a conflict. Kind names the earlier access
// (the source) first: WRITE-READ is a read after a concurrent write.
func (r *jsonReport) conflict() (conflict, error) {
	src, sink, ok := splitKind(r.Kind)
	if !ok || r.Sink == nil || r.Source == nil || r.Class == "" {
		return conflict{}, fmt.Errorf("want kind, class, sink and source")
	}
	a := access{src, r.Source.Pos, r.Source.What}
	b := access{sink, r.Sink.Pos, r.Sink.What}
	if b.less(a) {
		a, b = b, a
	}
	return conflict{r.Class, a, b}, nil
}

// less orders accesses by file, line, column (as numbers), op and what.
func (a access) less(b access) bool {
	af, al, ac := splitPos(a.pos)
	bf, bl, bc := splitPos(b.pos)
	return cmp.Or(strings.Compare(af, bf), cmp.Compare(al, bl), cmp.Compare(ac, bc),
		strings.Compare(a.op, b.op), strings.Compare(a.what, b.what)) < 0
}

// splitKind returns "write", "read" for WRITE-READ.
func splitKind(kind string) (first, second string, ok bool) {
	first, second, _ = strings.Cut(strings.ToLower(kind), "-")
	valid := func(op string) bool { return op == "read" || op == "write" }
	return first, second, valid(first) && valid(second)
}

// filter returns the conflicts of class.
func (o output) filter(class string) []conflict {
	var cs []conflict
	for _, c := range o.conflicts {
		if c.class == class {
			cs = append(cs, c)
		}
	}
	return cs
}

// site is a position an assertion names, file:line or file:line:col; col
// 0 matches any column.
type site struct {
	file      string
	line, col int
}

// parseSite parses a script's FILE:LINE or FILE:LINE:COL.
func parseSite(s string) (site, error) {
	file, line, col := splitPos(s)
	if file == "" || line <= 0 {
		return site{}, fmt.Errorf("%q: want file:line or file:line:col", s)
	}
	return site{filepath.ToSlash(file), line, col}, nil
}

// splitPos splits file:line:col (or file:line) from the right, as a file
// name may hold a colon.
func splitPos(s string) (file string, line, col int) {
	rest, last, _ := cutLastNumber(s)
	rest, prev, ok := cutLastNumber(rest)
	if !ok {
		return rest, last, 0
	}
	return rest, prev, last
}

// cutLastNumber cuts ":N" off the end of s.
func cutLastNumber(s string) (rest string, n int, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n < 0 {
		return s, 0, false
	}
	return s[:i], n, true
}

// matches reports whether the access at pos is at s: same line (and
// column, if s has one), and s's file is the position's base name or its
// path relative to work.
func (s site) matches(pos, work string) bool {
	file, line, col := splitPos(pos)
	if line != s.line || s.col != 0 && col != s.col {
		return false
	}
	return filepath.Base(file) == s.file || relPath(file, work) == s.file
}

// relPath returns file relative to work, slash-separated, or file itself
// when it is not under work.
func relPath(file, work string) string {
	if work == "" {
		return filepath.ToSlash(file)
	}
	for _, dir := range []string{work, evalSymlinks(work)} {
		if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(file)
}

// evalSymlinks returns dir with symbolic links resolved ($WORK under
// /tmp is /private/tmp on macOS, and programs print the resolved path).
func evalSymlinks(dir string) string {
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		return d
	}
	return dir
}

// format describes c for a message, positions relative to work:
// "write of a[i + 1] at main.go:15:4 and read of a[i] at main.go:15:13".
func (c conflict) format(work string) string {
	return fmt.Sprintf("%s and %s", c.a.format(work), c.b.format(work))
}

// format describes a: "write of a[i] at main.go:15:4".
func (a access) format(work string) string {
	if a.pos == "" {
		return fmt.Sprintf("%s of %s", a.op, a.what)
	}
	file, line, col := splitPos(a.pos)
	pos := fmt.Sprintf("%s:%d", relPath(file, work), line)
	if col > 0 {
		pos += ":" + strconv.Itoa(col)
	}
	return fmt.Sprintf("%s of %s at %s", a.op, a.what, pos)
}
