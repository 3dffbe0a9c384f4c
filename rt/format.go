package rt

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// print writes the first occurrence of a report, found where at says, as
// text in the style of the race detector or as one JSON object; st is the
// stack of the current access (stack.go).
func (r *reporter) print(at reportAt, rep rawReport, st []frame) {
	sink, src := rep.describe(at)
	sink.Stack = st
	w := r.writer()
	if r.cfg.json {
		b, _ := json.Marshal(jsonReport{
			Kind: rep.kind.String(), Class: rep.class.String(),
			Sink: sink, Source: src, Construct: sink.construct, Instance: at.instanceText(),
			Relation: relationName(rep.hb),
		})
		fmt.Fprintf(w, "%s\n", b)
		return
	}
	verb := [...]string{"write", "read", "write"}[rep.kind]
	srcVerb := [...]string{"write", "write", "read"}[rep.kind]
	fmt.Fprintf(w, "==================\nWARNING: %s (%s)\n%s %s\n",
		rep.class, rep.kind, accessVerb("", verb, wordAtomic(rep.sink)), sink.text())
	printStack(w, st)
	fmt.Fprintf(w, "%s %s\n", accessVerb("Previous ", srcVerb, wordAtomic(rep.source)), src.text())
	if in := at.instanceText(); in != "" {
		fmt.Fprintf(w, "In sampled %s\n", in)
	}
	if rep.hb {
		created := printCreated(w, wordTag(rep.sink), sink.Created)
		if wordTag(rep.source) != wordTag(rep.sink) && printCreated(w, wordTag(rep.source), src.Created) {
			created = true
		}
		if created {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s\n", hbFoundBy)
	}
	fmt.Fprintf(w, "==================\n")
}

// createdAt returns the frames of the stack s a go statement at site ran
// in, the innermost at the statement's line: the call that takes the
// stack is the statement's last argument (`go func(){…}(t.GoAt(site))`),
// whose line is the literal's last.
func createdAt(s *hbStack, site Site) []frame { return atSite(s.frames(), site) }

// printCreated writes where goroutine n was created, as the race
// detector does; nothing for a goroutine whose go statement's stack is
// unknown (a root, a callback's goroutine). It reports whether it wrote.
func printCreated(w io.Writer, n uint64, st []frame) bool {
	if len(st) == 0 {
		return false
	}
	fmt.Fprintf(w, "\nGoroutine #%d created at:\n", n)
	printStack(w, st)
	return true
}

// accessVerb returns "Write", "Previous read", "Atomic write", …
func accessVerb(prefix, verb string, atomic bool) string {
	if atomic {
		verb = "atomic " + verb
	}
	s := prefix + verb
	return strings.ToUpper(s[:1]) + s[1:]
}

// jsonReport is the JSON form of a report (format=json).
type jsonReport struct {
	Kind      string     `json:"kind"`
	Class     string     `json:"class"`
	Sink      accessDesc `json:"sink"`
	Source    accessDesc `json:"source"`
	Construct string     `json:"construct"`
	Instance  string     `json:"instance,omitempty"` // sample=P: the sampled root instance (dormant.go)
	Relation  string     `json:"relation,omitempty"` // "happens-before" for the layer's reports; absent for structural ones
}

// hbFoundBy is the line a happens-before report adds: the pair is
// unordered in the schedule this run took, or in one that differs from it
// only in the order in which goroutines took a lock whose critical
// sections do not conflict (the weak rule of hb_wcp.go); another schedule
// may order it, or not run it. A structural report holds for every
// schedule of the input.
const hbFoundBy = "found by happens-before: in this run's schedule, or one that hands a lock over in another order between critical sections that do not conflict"

// relationName is the JSON and SARIF relation of a report: "" for a
// structural one (their output is as before the layer).
func relationName(hb bool) string {
	if hb {
		return "happens-before"
	}
	return ""
}

// accessDesc describes one side of a report.
type accessDesc struct {
	Pos       string  `json:"pos"`
	What      string  `json:"what"`
	Block     string  `json:"block"`
	Stack     []frame `json:"stack,omitempty"`   // the current access's (stack.go); the earlier access keeps only its site
	Created   []frame `json:"created,omitempty"` // hb: the stack of the go statement that created the access's goroutine (hb_depot.go)
	construct string
}

// text returns "of a[i] at file:1:2 by iteration 3 of parallel loop at file:1:1".
func (d accessDesc) text() string {
	if d.Pos == "" {
		return fmt.Sprintf("of %s by %s", d.What, d.Block)
	}
	return fmt.Sprintf("of %s at %s by %s", d.What, d.Pos, d.Block)
}

// describe describes the two accesses of rep, found where at says.
func (rep rawReport) describe(at reportAt) (sink, src accessDesc) {
	sink, src = describeAccess(at.blocks[0], rep.sink), describeAccess(at.blocks[1], rep.source)
	if rep.hb {
		sink.Block = hbGoroutine(wordTag(rep.sink), rep.starts[0])
		src.Block = hbGoroutine(wordTag(rep.source), rep.starts[1])
		sink.Created, src.Created = createdAt(rep.created[0], rep.starts[0]), createdAt(rep.created[1], rep.starts[1])
	}
	return sink, src
}

// hbGoroutine returns "goroutine #4 started at f.go:1:2" for the
// goroutine numbered n, started by the go statement at site (0: unknown).
func hbGoroutine(n uint64, site Site) string {
	if info, ok := siteInfo(site); ok && site != 0 {
		return fmt.Sprintf("goroutine #%d started at %s", n, info.Pos)
	}
	return fmt.Sprintf("goroutine #%d", n)
}

// describeAccess describes the access recorded in shadow word w.
func describeAccess(b blockAt, w uint64) accessDesc {
	s := wordSite(w)
	d := accessDesc{What: fmt.Sprintf("unknown site %d", s)}
	if info, ok := siteInfo(s); ok {
		d.Pos, d.What = info.Pos, info.What
	}
	d.Block, d.construct = b.describe()
	return d
}

// reportAt is what a report needs from the tree it was found in, taken
// then: a report whose sites were not registered yet is printed later
// (report_pending.go), when the tree may be gone.
type reportAt struct {
	blocks       [2]blockAt // the sink's and the source's
	instance     uint64     // the sampled root instance (dormant.go), 0: none
	instanceSite Site
}

// blockAt is the block of a report's access, as found in its tree.
type blockAt struct {
	tag uint64
	r   blockRange
	ok  bool // found in a tree (a happens-before report has none: the tag is a goroutine number)
	hb  bool
}

// atTree returns what rep needs from tr (nil: a happens-before report).
func atTree(tr *tree, rep rawReport) reportAt {
	var at reportAt
	for i, w := range [2]uint64{rep.sink, rep.source} {
		b := blockAt{tag: wordTag(w), hb: tr == nil}
		if tr != nil {
			b.r, b.ok = tr.block(b.tag)
		}
		at.blocks[i] = b
	}
	if tr != nil {
		at.instance, at.instanceSite = tr.instance, tr.instanceSite
	}
	return at
}

// instanceText returns "root instance #3 of parallel loop at f.go:1:2"
// for a sampled instance, "" otherwise.
func (at reportAt) instanceText() string {
	if at.instance == 0 {
		return ""
	}
	return fmt.Sprintf("root instance #%d of %s", at.instance, siteName(at.instanceSite))
}

// describe returns "iteration 3 of parallel loop at f.go:1:2" for the
// block, and the construct part alone.
func (b blockAt) describe() (block, construct string) {
	if b.hb { // a happens-before report: the tag is a goroutine number (rawReport.describe)
		return hbGoroutine(b.tag, 0), ""
	}
	r, tag := b.r, b.tag
	if !b.ok || r.con == nil {
		return "the root goroutine", ""
	}
	construct = siteName(r.con.site)
	switch {
	case r.kind == itemBlocks:
		block = "work item"
	case r.kind == parentBlocks || r.fork < 0:
		block = "the parent"
	case r.kind == childBlocks:
		block = r.con.childName(r.fork + int(tag-r.lo))
	default:
		block = r.con.childName(r.fork)
	}
	return block + " of " + construct, construct
}

// siteName returns "parallel loop at f.go:1:2" for a construct site.
func siteName(s Site) string {
	info, ok := siteInfo(s)
	if !ok {
		return fmt.Sprintf("unknown site %d", s)
	}
	return info.What + " at " + info.Pos
}

// childName returns "iteration K", "section K" or "the worker" for the
// child with fork number f.
func (c *Construct) childName(f int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hasItems {
		return "the worker"
	}
	index := f
	if f < len(c.index) {
		index = c.index[f]
	}
	info, _ := siteInfo(c.site)
	if strings.Contains(info.What, "sections") {
		return fmt.Sprintf("section %d", index)
	}
	return fmt.Sprintf("iteration %d", index)
}
