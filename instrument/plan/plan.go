// Package plan is the contract between goanomaly's static stage and
// everything after it (the rewriter, vet, the slicer): what was found in one
// package, what will be checked at run time, and why. It is plain data, and
// dumps as JSON for golden tests (goanomaly -debug).
package plan

import (
	"fmt"
	"go/token"
	"strings"
)

// Package is the plan for one package.
type Package struct {
	Path       string      `json:"path"`
	Constructs []Construct `json:"constructs,omitempty"`
	// Called are the accesses of the checked clones of functions that
	// construct code calls: checked with the caller's block.
	Called []Access `json:"called,omitempty"`
	// Callbacks are the function literals proven as the body of the
	// construct of the helper they are passed to (analysis/specialize.go):
	// Kind names that construct, Pos is the literal's.
	Callbacks []Construct `json:"callbacks,omitempty"`
	Notes     []Note      `json:"notes,omitempty"`
}

// Construct is one parallel construct found in the source.
type Construct struct {
	Pos       Pos      `json:"pos"`  // the loop, or the first fork of a list of sections
	Kind      string   `json:"kind"` // "parallel loop", "parallel sections", "worker pool", …
	Join      Pos      `json:"join"` // the join statement (wg.Wait, g.Wait, last receive)
	Forks     []Pos    `json:"forks"`
	Accesses  []Access `json:"accesses,omitempty"`  // shared accesses: checked, read-only or independent
	Private   int      `json:"private"`             // accesses to memory only one block reaches
	Conflicts []Note   `json:"conflicts,omitempty"` // definite conflicts, found statically
	Locking   []Note   `json:"locking,omitempty"`   // inconsistent locking, found statically
	// Guard lists the slices that must be apart in memory for the proofs
	// marked "(when it is apart from …)": checked at run time at the
	// construct's start, which runs the fully checked version otherwise.
	Guard []string `json:"guard,omitempty"`
	// Injective says what the proofs through index slices (a[idx[i]])
	// assume, "idx holds no value twice": checked at run time with Guard.
	Injective []string `json:"injective,omitempty"`
	// Unchecked are the calls of the construct's code (or of what it
	// calls) whose callee runs unchecked: function values, interface
	// methods, literals called elsewhere. A construct with any is not
	// fully proven, whatever its accesses' verdicts.
	Unchecked []Note `json:"unchecked,omitempty"`
}

// Count returns how many of c's accesses have verdict v.
func (c *Construct) Count(v Verdict) int {
	n := 0
	for _, a := range c.Accesses {
		if a.Verdict == v {
			n++
		}
	}
	return n
}

// Summary is vet's line for a construct.
func (c *Construct) Summary() string {
	s := fmt.Sprintf("%s: goanomaly: %s: %d access(es) checked at run time, %d read-only, %d independent, %d private",
		c.Pos, c.Kind, c.Count(Checked), c.Count(ReadOnly), c.Count(Independent), c.Private)
	var when []string
	if len(c.Guard) > 0 {
		when = append(when, strings.Join(c.Guard, ", ")+" are apart in memory")
	}
	if len(c.Injective) > 0 {
		when = append(when, strings.Join(c.Injective, " and "))
	}
	if len(when) > 0 {
		s += "; when " + strings.Join(when, " and ") + " (checked at run time)"
	}
	if n := len(c.Unchecked); n > 0 {
		s += fmt.Sprintf("; not fully proven: %d call(s) run code unchecked (see the notes)", n)
	}
	return s
}

// CalledSummary is vet's line for the checked clones of the functions the
// constructs call, whose accesses no construct's line counts: how many are
// checked at run time (in the caller's block), at the first of them; or
// "" when none is.
func (p *Package) CalledSummary() string {
	n, first := 0, -1
	for i, a := range p.Called {
		if a.Verdict == Checked {
			n++
			if first < 0 {
				first = i
			}
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%s: goanomaly: functions the constructs call: %d access(es) checked at run time, in the caller's block", p.Called[first].Pos, n)
}

// Access is one memory access inside a construct (or a function it calls).
type Access struct {
	Pos     Pos     `json:"pos"`
	What    string  `json:"what"` // the expression as written
	Op      Op      `json:"op"`
	Verdict Verdict `json:"verdict"`
	Why     string  `json:"why,omitempty"`
}

// Op is the kind of access.
type Op string

// The kinds of access.
const (
	Read        Op = "read"
	Write       Op = "write"
	ReadWrite   Op = "read-write"
	AtomicRead  Op = "atomic-read"
	AtomicWrite Op = "atomic-write"
	Call        Op = "call" // a call whose callee, walked in place, makes only proven accesses
)

// Verdict is what the static stage decided for an access.
type Verdict string

// The verdicts.
const (
	Private     Verdict = "private"     // reachable from one block only
	ReadOnly    Verdict = "read-only"   // nothing in the construct writes it
	Independent Verdict = "independent" // dependence test proved no two blocks touch the same element
	Checked     Verdict = "checked"     // instrumented, checked at run time
	Conflict    Verdict = "conflict"    // definite conflict between blocks
)

// Note is something the model does not cover, at a position; it is not checked.
type Note struct {
	Pos    Pos    `json:"pos"`
	Msg    string `json:"msg"`
	Callee bool   `json:"callee,omitempty"` // about code only calls through values reach: in a package without constructs, printed by vet only
	Coarse bool   `json:"coarse,omitempty"` // about code that stays checked, at a coarser grain: printed without "not checked"
	HB     bool   `json:"hb,omitempty"`     // about goroutines an -hb build checks by happens-before instead
}

func (n Note) String() string {
	if n.Coarse {
		return fmt.Sprintf("%s: goanomaly: %s", n.Pos, n.Msg)
	}
	if n.HB {
		return fmt.Sprintf("%s: goanomaly: %s — checked by happens-before (-hb), not structurally", n.Pos, n.Msg)
	}
	return fmt.Sprintf("%s: goanomaly: %s — not checked", n.Pos, n.Msg)
}

// Conflict is vet's line for a definite conflict.
func (n Note) Conflict() string {
	return fmt.Sprintf("%s: goanomaly: %s", n.Pos, n.Msg)
}

// Pos is a position in the user's original source.
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// PosOf converts a token.Pos of fset.
func PosOf(fset *token.FileSet, p token.Pos) Pos {
	q := fset.Position(p)
	return Pos{File: q.Filename, Line: q.Line, Col: q.Column}
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }
