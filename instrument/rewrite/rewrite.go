// Package rewrite turns one type-checked package into its checked form: the
// same source with rt calls around the parallel constructs and the shared
// accesses inside them, printed with dst. Accesses are checked by wrapping
// the expression that makes them (a[i] becomes *_ga_rt.R(t, &a[i], site)),
// so no line is added for them; the few statements that are added (entering
// and joining a construct) are followed by /*line*/ directives, so every
// position the compiler, a panic or a report gives is the user's.
package rewrite

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dave/dst"

	"github.com/dave/dst/decorator"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/plan"
)

// Config says how to rewrite a package.
type Config struct {
	RTPath    string // import path of the runtime as the build makes it available
	FirstSite uint32 // first site id this package may use; ids are unique per binary
	// Test marks the one test variant of a package that ends the test binary
	// with rt.Fini: the variant declaring the user's TestMain if any (whose
	// m.Run() is wrapped), else the internal test package if it has _test.go
	// files, else the external one (which get a TestMain in a new file,
	// Result.TestMain).
	Test bool
	// Skip, if set, names files to leave as they are (cgo files are always left).
	Skip func(filename string) bool
	// Conservative checks every shared access, also those the static stage
	// proves read-only or independent: what a build costs when no proof
	// holds, measured against -race. Its loops still check contiguous runs
	// as ranges (coalescing drops no check, it only batches them).
	Conservative bool
	// Elementwise checks every access where it happens, never a loop's run
	// as one range: with Conservative, the reference the soundness tests
	// compare pruned (and coalesced) builds with.
	Elementwise bool
	// Dormant keeps, beside the checked code of every root construct, its
	// statements as written, and picks one of the two at each root
	// construct instance by rt.Sample (see dormant.go): the binary runs
	// plain until GOANOMALY asks for checks.
	Dormant bool
	// HB also checks the code that runs outside every construct, by
	// happens-before between goroutines (hb.go, rt/api_hb.go): every
	// function starts with its goroutine's thread (rt.HB), go statements
	// hand the parent's clock to the child, and channel operations, sync
	// calls and calls into code that is not rewritten are hooked.
	HB bool
	// hbRewritten holds the import paths of the packages rewritten
	// together (Packages): with HB, a call into one of them is followed,
	// not treated as foreign.
	hbRewritten map[string]bool
}

// Result is the rewritten package.
type Result struct {
	Files    map[string][]byte // original file name → rewritten source (only files that changed)
	NewFiles map[string][]byte // new file name (in the package directory) → source
	NextSite uint32            // first site id not used by this package
	Plan     *plan.Package
	// TestMain, if set, names the file of NewFiles that only declares a
	// TestMain ending the test binary with rt.Fini (Config.Test, when the
	// package declares none). The caller leaves it out of a test binary
	// that links no construct: nothing there can report, and a TestMain
	// adds a frame to the stacks of examples, which run on the main
	// goroutine under it (conc's panics example compares such frames).
	TestMain string
}

// testMainFile is the name of the file that declares the added TestMain.
// It starts with neither "_" nor "." (the go command ignores such files) and
// ends in _test.go; Package refuses a package that has a file of that name.
const testMainFile = "goanomaly_testmain_ga_test.go"

// rtAlias is the name instrumented files import the runtime under; the
// _ga_ prefix keeps injected names apart from the user's.
const rtAlias = "_ga_rt"

// Package rewrites pkg, which must have syntax and types and no errors.
func Package(pkg *packages.Package, cfg Config) (*Result, error) {
	res := analysis.Analyze(rewritable(pkg, cfg), pkg.TypesInfo, pkg.Types)
	res.SetViews(viewsOf(pkg))
	analysis.Link([]*analysis.Result{res})
	return rewrite(pkg, res, cfg)
}

// Packages rewrites packages that are built together (loaded by one
// packages.Load): construct code in one may call functions of another, and
// those calls reach the other's checked clones. Site ids run on from
// cfg.FirstSite across the packages; cfg.Test applies to pkgs[i] when
// test[i] is set.
func Packages(pkgs []*packages.Package, test []bool, cfg Config) ([]*Result, error) {
	results := make([]*analysis.Result, len(pkgs))
	wraps := analysis.NewWrappers()
	for range 2 { // a wrapper's Go may hand f to a function of a package found later
		for _, p := range pkgs {
			wraps.Find(rewritable(p, cfg), p.TypesInfo, p.Types)
		}
	}
	for i, p := range pkgs {
		results[i] = analysis.AnalyzeWith(rewritable(p, cfg), p.TypesInfo, p.Types, wraps)
		results[i].SetViews(viewsOf(p))
	}
	analysis.Link(results)
	cfg.hbRewritten = map[string]bool{}
	for _, p := range pkgs {
		cfg.hbRewritten[p.PkgPath] = true
	}
	out := make([]*Result, len(pkgs))
	for i, p := range pkgs {
		c := cfg
		c.Test = i < len(test) && test[i]
		r, err := rewrite(p, results[i], c)
		if err != nil {
			return nil, err
		}
		out[i] = r
		cfg.FirstSite = r.NextSite
	}
	return out, nil
}

// rewritable lists the files of pkg the rewriter may change: Go files that
// are not cgo files and that cfg does not skip. Only their functions are
// analysed, so nothing calls a clone of a function in a file left as is.
func rewritable(pkg *packages.Package, cfg Config) []*ast.File {
	var out []*ast.File
	for _, f := range pkg.Syntax {
		name := pkg.Fset.File(f.Pos()).Name()
		if strings.HasSuffix(name, ".go") && !importsC(f) && (cfg.Skip == nil || !cfg.Skip(name)) {
			out = append(out, f)
		}
	}
	return out
}

func rewrite(pkg *packages.Package, res *analysis.Result, cfg Config) (*Result, error) {
	out := &Result{Files: map[string][]byte{}, NewFiles: map[string][]byte{}, NextSite: cfg.FirstSite}
	out.Plan = planOf(pkg, res)
	planned := map[*analysis.Construct]*plan.Construct{}
	for i, c := range res.Constructs {
		planned[c] = &out.Plan.Constructs[i]
	}
	testFile := slices.IndexFunc(pkg.Syntax, func(f *ast.File) bool {
		return strings.HasSuffix(pkg.Fset.File(f.Pos()).Name(), "_test.go")
	})
	for _, file := range rewritable(pkg, cfg) {
		name := pkg.Fset.File(file.Pos()).Name()
		fr := &fileRewriter{
			pkg: pkg, info: pkg.TypesInfo, res: res, cfg: cfg, name: name, astFile: file, testVariant: testFile >= 0,
			plan: out.Plan, planned: planned,
			first: out.NextSite, orderedOK: orderedLines(pkg.Fset, file),
			hbWhole: cfg.HB && len(rewritable(pkg, cfg)) == len(pkg.Syntax),
		}
		src, err := fr.rewrite()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if src == nil {
			continue
		}
		out.Files[name] = src
		out.NextSite += uint32(len(fr.sites))
	}
	if cfg.Test && testFile >= 0 && !declares(pkg, "TestMain") {
		dir := filepath.Dir(pkg.Fset.File(pkg.Syntax[testFile].Pos()).Name())
		name := filepath.Join(dir, testMainFile)
		if slices.Contains(pkg.GoFiles, name) || slices.Contains(pkg.IgnoredFiles, name) {
			return nil, fmt.Errorf("%s: cannot add goanomaly's TestMain: the package has a file of that name", name)
		}
		out.NewFiles[name] = addedTestMain(pkg.Name, cfg.RTPath)
		out.TestMain = name
	}
	return out, nil
}

// addedTestMain is the source of the file that ends a test binary whose
// package declares no TestMain with rt.Fini, as
//
//	func TestMain(m *testing.M) { _ga_rt.Fini(m.Run()) }
func addedTestMain(pkgName, rtPath string) []byte {
	return fmt.Appendf(nil, "// Code generated by goanomaly: the test binary ends with rt.%[3]s. DO NOT EDIT.\n\npackage %[1]s\n\n"+
		"import (\n\t%[2]s %[4]q\n\t_ga_testing \"testing\"\n)\n\n"+
		"func TestMain(m *_ga_testing.M) { %[2]s.%[3]s(m.Run()) }\n",
		pkgName, rtAlias, rtnames.Fini, rtPath)
}

// declares reports whether pkg declares a package-level function name.
func declares(pkg *packages.Package, name string) bool {
	_, ok := pkg.Types.Scope().Lookup(name).(*types.Func)
	return ok
}

func importsC(f *ast.File) bool {
	for _, im := range f.Imports {
		if im.Path.Value == `"C"` {
			return true
		}
	}
	return false
}

// orderedLines are the lines a //goanomaly:ordered-ok comment masks: its
// own line (trailing comment) and the next (comment above a statement).
func orderedLines(fset *token.FileSet, f *ast.File) map[int]bool {
	lines := map[int]bool{}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//goanomaly:ordered-ok") {
				l := fset.Position(c.Pos()).Line
				lines[l], lines[l+1] = true, true
			}
		}
	}
	return lines
}

// fileRewriter rewrites one file.
type fileRewriter struct {
	pkg       *packages.Package
	info      *types.Info
	res       *analysis.Result
	cfg       Config
	name      string
	astFile   *ast.File
	first     uint32
	sites     []siteInfo
	siteIDs   map[siteInfo]uint32 // one id per distinct site: the pruned and checked versions of an access share it
	orderedOK map[int]bool
	gotos     map[string]bool // the labels gotos of the file name, once asked
	nconst    int             // constructs named so far
	plan      *plan.Package   // the package plan, where accesses and their verdicts are recorded
	planned   map[*analysis.Construct]*plan.Construct
	// testVariant: the package is built with its _test.go files, where a
	// test may call main, so main is not wrapped with Fini.
	testVariant bool
	changed     bool                             // something was rewritten
	hbVars      map[*types.Var]bool              // -hb: locals shared between goroutines (hbShared)
	hbRoots     map[*ast.FuncLit]bool            // -hb: literals t.Run runs, roots of their own (hbRunRoot)
	hbCallbacks map[*ast.FuncLit]bool            // -hb: literals passed to code not rewritten (hbCallbacksOf)
	hbReturns   map[*ast.ReturnStmt][]*types.Var // -hb: the named results each bare return reads (hbBareReturn)
	hbInline    map[*ast.CallExpr]bool           // -hb: calls through values hooked by ForeignFunc (inlineValueCall)
	// hbWhole: an -hb build rewrites every Go file of the package (no cgo
	// file, none skipped), so its functions hook their own
	// synchronization: HBPackage registers it (rt/hb_funcs.go).
	hbWhole bool
}

type siteInfo struct {
	pos, what string
	ordered   bool
}

// rewrite returns the checked source of the file, or nil if nothing changes.
func (fr *fileRewriter) rewrite() ([]byte, error) {
	dec := decorator.NewDecorator(fr.pkg.Fset)
	df, err := dec.DecorateFile(fr.astFile)
	if err != nil {
		return nil, err
	}
	var clones []dst.Decl
	isMain := fr.pkg.Name == "main"
	renamedMain := false
	for i, d := range fr.astFile.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			fr.varDecl(dec, df.Decls[i].(*dst.GenDecl))
			continue
		}
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || analysis.Ignored(fd) {
			continue
		}
		ddecl := df.Decls[i].(*dst.FuncDecl)
		fn, _ := fr.info.Defs[fd.Name].(*types.Func)
		prologue := fr.res.Prologue[fn] && fr.res.Clones[fn]
		if fr.res.Clones[fn] {
			cd := fr.clone(fd)
			clones = append(clones, cd)
			prologue = prologue && !sameAsPlain(cd.(*dst.FuncDecl).Body)
			if !fr.cfg.Conservative && !fr.cfg.HB {
				for _, cc := range fr.res.ContextClones(fn) {
					clones = append(clones, fr.contextClone(fd, cc))
				}
			}
		}
		w := fr.walker(dec, "")
		if fr.cfg.HB {
			w = fr.walker(dec, hbTask)
		}
		w.block(ddecl.Body)
		if fr.cfg.HB {
			w.hbEntry(ddecl.Body, fr.isRoot(fd), fd.Recv, fd.Type.Params, fd.Type.Results)
		}
		fr.wrapExits(dec, ddecl.Body)
		if prologue {
			w.prologue(ddecl, fd)
		} else if fr.res.Detach[fn] {
			w.detachFirst(ddecl.Body, fd.Type.Func)
		}
		if *w.touched {
			w.anchor()
		}
		if fr.cfg.Test && fd.Recv == nil && fd.Name.Name == "TestMain" {
			fr.wrapRun(ddecl)
		}
		if isMain && !fr.testVariant && fd.Recv == nil && fd.Name.Name == "main" {
			ddecl.Name.Name = "_ga_main"
			renamedMain, fr.changed = true, true
		}
	}
	if !fr.changed && len(clones) == 0 {
		return nil, nil
	}
	fr.anchorDecls(df)
	df.Decls = append(df.Decls, clones...)
	addImport(df, fr.cfg.RTPath, rtAlias)
	var buf bytes.Buffer
	if err := decorator.NewRestorer().Fprint(&buf, df); err != nil {
		return nil, err
	}
	fr.appendRegistration(&buf)
	if renamedMain {
		fmt.Fprintf(&buf, "\nfunc main() { _ga_main(); %s.%s(0) }\n", rtAlias, rtnames.Fini)
	}
	return buf.Bytes(), nil
}

// anchorDecls puts a line directive before each of the file's own
// declarations. The added import, and statements added above a
// declaration, move the lines of everything after them; the rewritten
// statements carry directives of their own, but a declaration the rewrite
// did not touch had none, so a panic in it, or a compiler error, gave a
// line a few below the user's.
func (fr *fileRewriter) anchorDecls(df *dst.File) {
	for i, d := range fr.astFile.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			continue // the added import goes after these: nothing above them moves
		}
		p := fr.pkg.Fset.Position(d.Pos())
		dd := df.Decls[i]
		dd.Decorations().Start.Append(lineDirective(p, false)) // on a line of its own: it names the next line
	}
}

// varDecl rewrites the function literals of a package-level var
// declaration that may be called through their values (their prologues);
// nothing else in it runs in a construct. In an -hb build, an
// initializer that calls a function runs as a root (hbInitRoots).
func (fr *fileRewriter) varDecl(dec *decorator.Decorator, gd *dst.GenDecl) {
	w := fr.walker(dec, "")
	for _, sp := range gd.Specs {
		if vs, ok := sp.(*dst.ValueSpec); ok {
			w.rvals(vs.Values) // plain code (no task): only its literals change
			if fr.cfg.HB {
				w.hbInitRoots(vs)
			}
		}
	}
	if *w.touched {
		w.anchor()
	}
}

// addImport adds `import alias "path"` after the file's imports.
func addImport(f *dst.File, path, alias string) {
	spec := &dst.ImportSpec{Name: dst.NewIdent(alias), Path: &dst.BasicLit{Kind: token.STRING, Value: fmt.Sprintf("%q", path)}}
	gd := &dst.GenDecl{Tok: token.IMPORT, Specs: []dst.Spec{spec}}
	i := 0
	for i < len(f.Decls) {
		if g, ok := f.Decls[i].(*dst.GenDecl); !ok || g.Tok != token.IMPORT {
			break
		}
		i++
	}
	f.Decls = slices.Insert(f.Decls, i, dst.Decl(gd))
}

// appendRegistration appends the init function that registers the file's sites.
func (fr *fileRewriter) appendRegistration(buf *bytes.Buffer) {
	if len(fr.sites) == 0 {
		return
	}
	buf.WriteString("\nfunc init() {\n")
	if fr.hbWhole {
		fmt.Fprintf(buf, "\t%s.%s(%q, %q, %q", rtAlias, rtnames.HBPackage, fr.pkg.Types.Path(), fr.pkg.Types.Name(), filepath.Dir(fr.name))
		for _, m := range valueMethodWrappers(fr.astFile) {
			fmt.Fprintf(buf, ", %q", m)
		}
		buf.WriteString(")\n")
	}
	fmt.Fprintf(buf, "\t%s.%s(%d, []%s.%s{\n", rtAlias, rtnames.RegisterSites, fr.first, rtAlias, rtnames.SiteInfo)
	for _, s := range fr.sites {
		flags := "0"
		if s.ordered {
			flags = rtAlias + "." + rtnames.OrderedOK
		}
		fmt.Fprintf(buf, "\t\t{Pos: %q, What: %q, Flags: %s},\n", s.pos, s.what, flags)
	}
	buf.WriteString("\t})\n}\n")
}

// site registers a site at pos and returns its id. An access written once
// in the source has one id however many copies of it the rewrite makes (a
// guarded construct's pruned and checked versions, a function's clone): the
// runtime keys reports by the pair of site ids, and two ids for one access
// printed the same pair twice, with its count split between them.
func (fr *fileRewriter) site(pos token.Pos, what string) uint32 {
	p := fr.pkg.Fset.Position(pos)
	if len(what) > 60 {
		what = what[:57] + "..."
	}
	s := siteInfo{pos: fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column), what: what, ordered: fr.orderedOK[p.Line]}
	if id, ok := fr.siteIDs[s]; ok {
		return id
	}
	if fr.siteIDs == nil {
		fr.siteIDs = map[siteInfo]uint32{}
	}
	fr.sites = append(fr.sites, s)
	id := fr.first + uint32(len(fr.sites)-1)
	fr.siteIDs[s] = id
	return id
}

// wrapRun makes a user's TestMain report data races in its exit status:
// m.Run() becomes _ga_rt.Status(m.Run()).
func (fr *fileRewriter) wrapRun(fd *dst.FuncDecl) {
	dstApply(fd.Body, func(e dst.Expr) dst.Expr {
		call, ok := e.(*dst.CallExpr)
		if !ok {
			return e
		}
		if sel, ok := call.Fun.(*dst.SelectorExpr); ok && sel.Sel.Name == "Run" && len(call.Args) == 0 {
			fr.changed = true
			return &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(rtnames.Status)}, Args: []dst.Expr{call}}
		}
		return e
	})
}
