package rt

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
)

// format=sarif writes one SARIF 2.1.0 log per process at Fini, for
// code-scanning tools: a result per distinct reported pair, with the
// current access first and the earlier one second among its locations.
// SARIF is one document, so nothing is printed at report time; the result is
// described then (the blocks are known only while the tree lives) and kept
// with the report's entry. The types below are the part of the SARIF object
// model goanomaly fills, written with encoding/json because rt imports only
// the standard library.

const (
	sarifSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	sarifVersion = "2.1.0"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult               `json:"results"`
	Properties         map[string]any              `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	Name                 string       `json:"name"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Kind      string          `json:"kind"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
	// Properties carry what the text report says that SARIF has no field
	// for: the conflict's kind, the construct, how often it was found.
	Properties map[string]any `json:"properties,omitempty"`
	Stacks     []sarifStack   `json:"stacks,omitempty"` // the current access's call stack; -hb: where each goroutine was created
}

type sarifStack struct {
	Message sarifMessage `json:"message"`
	Frames  []sarifFrame `json:"frames"`
}

type sarifFrame struct {
	Location sarifLocation `json:"location"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	Message          sarifMessage   `json:"message"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           *sarifRegion     `json:"region,omitempty"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// sarifRules are the two rules, in ruleIndex order (the class's value).
var sarifRules = [...]struct{ id, name, text, level string }{
	dataRace: {"DATA_RACE", "DataRace", "Two accesses to the same memory, at least one a write, by blocks of a parallel construct that nothing orders", "error"},
	nondet:   {"NONDETERMINISM", "Nondeterminism", "Two conflicting accesses ordered only by the scheduler (both under one lock, or both atomic)", "warning"},
}

// sarifPending is a result as found at report time, before its locations
// are made relative to their module roots.
type sarifPending struct {
	class        class
	kind         kind
	text         string
	sink, source accessDesc
	hb           bool // found by happens-before
}

// describeSARIF describes a report for the SARIF log.
func describeSARIF(at reportAt, rep rawReport, st []frame) *sarifPending {
	sink, src := rep.describe(at)
	sink.Stack = st
	return &sarifPending{rep.class, rep.kind, reportLine(rep, sink, src), sink, src, rep.hb}
}

// reportLine is the text report in one line: "DATA RACE (WRITE-WRITE):
// Write of x at f.go:3:4 by iteration 1 of …; Previous write of x at …".
func reportLine(rep rawReport, sink, src accessDesc) string {
	verb := [...]string{"write", "read", "write"}[rep.kind]
	srcVerb := [...]string{"write", "write", "read"}[rep.kind]
	line := fmt.Sprintf("%s (%s): %s %s; %s %s", rep.class, rep.kind,
		accessVerb("", verb, wordAtomic(rep.sink)), sink.text(),
		accessVerb("Previous ", srcVerb, wordAtomic(rep.source)), src.text())
	if rep.hb {
		line += "; " + hbFoundBy
	}
	return line
}

// writeSARIF writes the SARIF log of the unmasked entries and, with
// summary=1, the counters as the run's properties. r.mu is held.
func (r *reporter) writeSARIF(w io.Writer, summary map[string]any) {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{
		Name: "goanomaly", Version: rtVersion(), InformationURI: "https://github.com/goanomaly/goanomaly",
	}}, Results: []sarifResult{}}
	for _, rule := range sarifRules {
		sr := sarifRule{ID: rule.id, Name: rule.name, ShortDescription: sarifMessage{rule.text}}
		sr.DefaultConfiguration.Level = rule.level
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sr)
	}
	roots := sarifRoots{}
	for _, e := range r.entries {
		if e.masked || e.sarif == nil {
			continue
		}
		p := e.sarif
		res := sarifResult{
			RuleID: sarifRules[p.class].id, RuleIndex: int(p.class), Level: sarifRules[p.class].level, Kind: "fail",
			Message: sarifMessage{p.text},
			Properties: map[string]any{
				"kind": p.kind.String(), "construct": p.sink.construct, "count": e.count.Load(),
			},
		}
		if p.hb {
			res.Properties["relation"] = relationName(true)
		}
		for i, d := range []accessDesc{p.sink, p.source} {
			verb := [...]string{"write", "read", "write"}[p.kind]
			if i == 1 {
				verb = "previous " + [...]string{"write", "write", "read"}[p.kind]
			}
			loc := sarifLocation{Message: sarifMessage{fmt.Sprintf("%s of %s by %s", verb, d.What, d.Block)}}
			loc.PhysicalLocation = roots.physical(d.Pos)
			res.Locations = append(res.Locations, loc)
		}
		verb := [...]string{"write", "read", "write"}[p.kind]
		res.Stacks = roots.stacks(res.Stacks, "stack of the "+verb, p.sink.Stack)
		// -hb: where each goroutine was created, as the text report's
		// "Goroutine #N created at:".
		res.Stacks = roots.stacks(res.Stacks, "creation of "+p.sink.Block, p.sink.Created)
		res.Stacks = roots.stacks(res.Stacks, "creation of "+p.source.Block, p.source.Created)
		run.Results = append(run.Results, res)
	}
	if len(roots.ids) > 0 {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{}
		for dir, id := range roots.ids {
			run.OriginalURIBaseIDs[id] = sarifArtifactLoc{URI: fileURI(dir) + "/"}
		}
	}
	if summary != nil {
		run.Properties = map[string]any{"goanomaly/summary": summary}
	}
	b, _ := json.MarshalIndent(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}, "", "  ")
	fmt.Fprintf(w, "%s\n", b)
}

// stacks appends to l the stack of frames fs with message msg, if fs has
// any.
func (s *sarifRoots) stacks(l []sarifStack, msg string, fs []frame) []sarifStack {
	if len(fs) == 0 {
		return l
	}
	st := sarifStack{Message: sarifMessage{msg}}
	for _, f := range fs {
		st.Frames = append(st.Frames, sarifFrame{sarifLocation{PhysicalLocation: s.physical(f.Pos), Message: sarifMessage{f.Func}}})
	}
	return append(l, st)
}

// sarifRoots names the module roots the locations are relative to:
// SRCROOT for the first, SRCROOT1, SRCROOT2, … for others (a workspace).
type sarifRoots struct {
	ids  map[string]string // module root directory → uriBaseId
	mods map[string]string // directory → its module root, "" if none
}

// physical returns the location of pos ("file:line:col"): the file relative
// to its module root (the nearest directory above it with a go.mod, if the
// file is on this machine), else its absolute path as a file URI.
func (s *sarifRoots) physical(pos string) *sarifPhysical {
	file, line, col := splitPos(pos)
	if file == "" {
		return nil
	}
	ph := &sarifPhysical{ArtifactLocation: sarifArtifactLoc{URI: fileURI(file)}}
	if line > 0 {
		ph.Region = &sarifRegion{StartLine: line, StartColumn: col}
	}
	if root := s.moduleRoot(filepath.Dir(file)); root != "" {
		if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, "..") {
			ph.ArtifactLocation = sarifArtifactLoc{URI: (&url.URL{Path: filepath.ToSlash(rel)}).String(), URIBaseID: s.id(root)}
		}
	}
	return ph
}

// id returns the uriBaseId of module root dir.
func (s *sarifRoots) id(dir string) string {
	if s.ids == nil {
		s.ids = map[string]string{}
	}
	if id, ok := s.ids[dir]; ok {
		return id
	}
	id := "SRCROOT"
	if n := len(s.ids); n > 0 {
		id += strconv.Itoa(n)
	}
	s.ids[dir] = id
	return id
}

// moduleRoot returns the nearest directory from dir up that holds a go.mod.
func (s *sarifRoots) moduleRoot(dir string) string {
	if s.mods == nil {
		s.mods = map[string]string{}
	}
	if !filepath.IsAbs(dir) {
		return ""
	}
	if root, ok := s.mods[dir]; ok {
		return root
	}
	root := ""
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		root = dir
	} else if parent := filepath.Dir(dir); parent != dir {
		root = s.moduleRoot(parent)
	}
	s.mods[dir] = root
	return root
}

// splitPos splits "file:line:col" (file may itself hold colons).
func splitPos(pos string) (file string, line, col int) {
	rest, c, ok := cutLastNumber(pos)
	if !ok {
		return pos, 0, 0
	}
	if f, l, ok := cutLastNumber(rest); ok {
		return f, l, c
	}
	return rest, c, 0
}

// cutLastNumber splits "s:N" into s and N.
func cutLastNumber(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return s, 0, false
	}
	return s[:i], n, true
}

// fileURI returns the file: URI of an absolute path, or the path as a
// relative URI reference.
func fileURI(p string) string {
	p = filepath.ToSlash(p)
	if !filepath.IsAbs(filepath.FromSlash(p)) {
		return (&url.URL{Path: p}).String()
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x on Windows: file:///C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// rtVersion is the version of goanomaly's module the program was built
// with, as the build recorded it, or "devel".
func rtVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		mods := append([]*debug.Module{&bi.Main}, bi.Deps...)
		for _, m := range mods {
			if m.Path == "github.com/goanomaly/goanomaly" && m.Version != "" && m.Version != "(devel)" {
				return m.Version
			}
		}
	}
	return "devel"
}
