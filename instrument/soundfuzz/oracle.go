package soundfuzz

import (
	"fmt"
	"sort"
	"strings"
)

// Truth is what a program can do, by construction: for every element two
// concurrent accesses can touch with one of them writing, the site pairs
// that conflict on it.
type Truth struct {
	File     string               // the program's file, as reports name it (relative)
	Conflict map[string]*Conflict // by element, "arr#idx"
	Pairs    map[string]bool      // every conflicting site pair, "x ~ y" sorted
}

// Conflict is one element's conflicting pairs, and for each the spans of
// the constructs or calls whose note stands for it (nil when none may).
type Conflict struct {
	Element string
	Pairs   map[string][]*Span
}

// Sites returns "file:line:col" of an access.
func (t *Truth) site(a *Access) string {
	return fmt.Sprintf("%s:%d:%d", t.File, a.site.Line, a.site.Col)
}

// PairKey is the key of a site pair, in either order.
func PairKey(x, y string) string {
	if y < x {
		x, y = y, x
	}
	return x + " ~ " + y
}

// truth computes the conflicts of accesses acc of a program rendered to
// file (sites must be set).
func truth(file string, acc []access) *Truth {
	t := &Truth{File: file, Conflict: map[string]*Conflict{}, Pairs: map[string]bool{}}
	byElem := map[[2]int][]access{}
	for _, a := range acc {
		k := [2]int{a.arr, a.idx}
		byElem[k] = append(byElem[k], a)
	}
	for k, as := range byElem {
		for i := range as {
			for j := i + 1; j < len(as); j++ {
				a, b := as[i], as[j]
				if !a.write && !b.write || !concurrent(a, b) {
					continue
				}
				name := fmt.Sprintf("array %d element %d", k[0], k[1])
				c := t.Conflict[name]
				if c == nil {
					c = &Conflict{Element: name, Pairs: map[string][]*Span{}}
					t.Conflict[name] = c
				}
				key := PairKey(t.site(a.site), t.site(b.site))
				t.Pairs[key] = true
				c.Pairs[key] = append(c.Pairs[key], append(append([]*Span(nil), a.excuses...), b.excuses...)...)
			}
		}
	}
	return t
}

// Note is a goanomaly build note: a position and why.
type Note struct {
	File string
	Line int
	Text string
}

// Outcome is what one build of a program reported.
type Outcome struct {
	Races []string // DATA RACE site pairs, PairKey form, positions relative like Truth.File
	Notes []Note   // the build's notes on the program's file
}

// Verdict is the comparison of an outcome with the truth.
type Verdict struct {
	Problems []string // misses and false reports; empty when sound
	Checked  int      // conflicting elements reported
	Noted    int      // conflicting elements not reported, covered by a note
}

// Judge compares o with t. A reported DATA RACE must be a conflicting
// pair; every conflicting element must be reported with one of its pairs
// (the runtime reports each conflicting location once, with one pair), or
// else every one of its pairs must be covered by a note printed in the span
// of a construct or call that may be noted rather than checked.
func Judge(t *Truth, o Outcome) Verdict {
	var v Verdict
	reported := map[string]bool{}
	for _, r := range o.Races {
		reported[r] = true
		if !t.Pairs[r] {
			v.Problems = append(v.Problems, "false report: DATA RACE "+r+" (no concurrent pair of these sites touches one element)")
		}
	}
	noted := func(s *Span) bool {
		for _, n := range o.Notes {
			if n.File == t.File && s.Lo <= n.Line && n.Line <= s.Hi {
				return true
			}
		}
		return false
	}
	var names []string
	for name := range t.Conflict {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		c := t.Conflict[name]
		var pairs []string
		hit, excused := false, true
		for p, spans := range c.Pairs {
			pairs = append(pairs, p)
			hit = hit || reported[p]
			ok := false
			for _, s := range spans {
				ok = ok || noted(s)
			}
			excused = excused && ok
		}
		sort.Strings(pairs)
		switch {
		case hit:
			v.Checked++
		case excused:
			v.Noted++
		default:
			v.Problems = append(v.Problems, fmt.Sprintf("missed: %s, conflicting pairs %s", name, strings.Join(pairs, ", ")))
		}
	}
	return v
}

// Program is a generated program ready to build: its source, the file it
// goes to and its truth.
type Program struct {
	Family string
	Source []byte
	Truth  *Truth
}

// Build generates the program data describes, as package pkg of module
// mod in file pkg/prog.go, and computes its truth. An error is a model the
// simulation refused (a generator bug).
func Build(data []byte, pkg, mod string) (*Program, error) {
	p := Generate(data)
	acc, err := simulate(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", p.Family, err)
	}
	file := pkg + "/prog.go"
	src := render(p, pkg, mod)
	return &Program{Family: p.Family, Source: src, Truth: truth(file, acc)}, nil
}
