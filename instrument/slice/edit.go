package slice

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// An edit replaces src[start:end] with pieces: literal text, or ranges of
// the original text (a trap copies its operands from the statement).
type edit struct {
	start, end int
	pieces     []piece
}

type piece struct {
	text       string
	start, end int // a copied range when text == "" and end > start
}

// edit returns the sliced text of file i, and whether anything changed.
// It never removes a newline (a dropped statement's lines stay, empty),
// so that every line the rewriter's directives do not cover keeps its
// number.
func (ps *pkgState) edit(i int) ([]byte, bool) {
	f, src := ps.p.Files[i], ps.p.Src[i]
	tf := ps.p.Fset.File(f.Pos())
	off := func(p token.Pos) int { return tf.Offset(p) }
	var edits []edit
	replace := func(n ast.Node, pieces []piece) {
		s, e := off(n.Pos()), off(n.End())
		nl := bytes.Count(src[s:e], []byte("\n"))
		for _, p := range pieces {
			if p.text == "" {
				nl -= bytes.Count(src[p.start:p.end], []byte("\n"))
			}
		}
		if nl > 0 {
			pieces = append(pieces, piece{text: strings.Repeat("\n", nl)})
		}
		edits = append(edits, edit{s, e, pieces})
	}
	insert := func(p token.Pos, text string) {
		edits = append(edits, edit{off(p), off(p), []piece{{text: text}}})
	}
	dropped := func(s ast.Stmt) bool {
		_, isEmpty := s.(*ast.EmptyStmt)
		return ps.visited[s] && !ps.kept[s] && !isEmpty
	}
	replaced := map[ast.Node]bool{} // not entered: their text is gone
	list := func(stmts []ast.Stmt) {
		for _, s := range stmts {
			if dropped(s) {
				replace(s, ps.trapText(s, off))
				replaced[s] = true
				continue
			}
			for _, v := range ps.unusedDecls(s) {
				insert(s.End(), "; _ = "+v)
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if replaced[n] {
			return false
		}
		if st, ok := n.(ast.Stmt); ok && ps.kept[st] {
			if pieces, ok := ps.hoist(st, src, off); ok {
				replace(st, pieces)
				return false
			}
		}
		switch n := n.(type) {
		case *ast.BlockStmt:
			list(n.List)
		case *ast.CaseClause:
			list(n.Body)
		case *ast.CommClause:
			ps.headerUses(n.Comm, n.Colon+1, insert)
			list(n.Body)
		case *ast.ForStmt:
			ps.headerUses(n.Init, n.Body.Lbrace+1, insert)
		case *ast.SwitchStmt:
			if len(n.Body.List) > 0 {
				ps.headerUses(n.Init, n.Body.List[0].(*ast.CaseClause).Colon+1, insert)
			}
		case *ast.IfStmt:
			ps.headerUses(n.Init, n.Body.Lbrace+1, insert)
			if n.Else != nil && dropped(n.Else) {
				replace(n.Else, []piece{{text: "{}"}})
				replaced[n.Else] = true
			}
		case *ast.RangeStmt:
			if es, ok := ps.rangeHeader(n, off); ok {
				edits = append(edits, es...)
			}
		case *ast.TypeSwitchStmt:
			if len(n.Body.List) > 0 {
				ps.headerUses(n.Init, n.Body.List[0].(*ast.CaseClause).Colon+1, insert)
			}
			if v := ps.unusedSwitchVar(n); v != "" && len(n.Body.List) > 0 {
				insert(n.Body.List[0].(*ast.CaseClause).Colon+1, " _ = "+v+";")
			}
		}
		return true
	})
	if len(edits) == 0 {
		return nil, false
	}
	edits = append(edits, ps.unusedImports(f, edits, off)...)
	sort.SliceStable(edits, func(a, b int) bool { return edits[a].start < edits[b].start })
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		if e.start < at {
			continue // inside an edit already made (cannot happen: dropped statements are not entered)
		}
		out.Write(src[at:e.start])
		for _, p := range e.pieces {
			if p.text != "" {
				out.WriteString(p.text)
			} else if p.end > p.start {
				out.Write(src[p.start:p.end])
			}
		}
		at = e.end
	}
	out.Write(src[at:])
	return out.Bytes(), true
}

// trapText is the text that replaces dropped statement s: its traps, on
// its line.
func (ps *pkgState) trapText(s ast.Stmt, off func(token.Pos) int) []piece {
	var pieces []piece
	for i, t := range ps.traps[s] {
		if i > 0 {
			pieces = append(pieces, piece{text: "; "})
		}
		switch t.kind {
		case trapAddr:
			pieces = append(pieces, piece{text: "_ = &"})
		case trapValue:
			pieces = append(pieces, piece{text: "_ = "})
		}
		pieces = append(pieces, piece{start: off(t.e.Pos()), end: off(t.e.End())})
	}
	return pieces
}

// rangeHeader drops the variables of a kept range loop that nothing kept
// uses (the value variable would load every element).
func (ps *pkgState) rangeHeader(s *ast.RangeStmt, off func(token.Pos) int) ([]edit, bool) {
	if !ps.kept[s] || s.Tok != token.DEFINE || s.Key == nil {
		return nil, false
	}
	k, v := ps.usedVar(s.Key), ps.usedVar(s.Value)
	if !v && derefsRange(s) {
		if _, ok := ps.p.Info.TypeOf(s.X).Underlying().(*types.Pointer); ok {
			// A nil pointer to an array panics only when the value
			// variable is there: it stays, read by _ = v.
			es := []edit{{off(s.Body.Lbrace) + 1, off(s.Body.Lbrace) + 1, []piece{{text: " _ = " + s.Value.(*ast.Ident).Name + ";"}}}}
			if !k && s.Key.(*ast.Ident).Name != "_" {
				es = append(es, edit{off(s.Key.Pos()), off(s.Key.End()), []piece{{text: "_"}}})
			}
			return es, true
		}
	}
	switch {
	case !k && !v:
		return []edit{{off(s.Key.Pos()), off(s.X.Pos()), []piece{{text: "range "}}}}, true
	case s.Value != nil && !v:
		return []edit{{off(s.Key.End()), off(s.Value.End()), nil}}, true
	case !k && s.Key.(*ast.Ident).Name != "_":
		return []edit{{off(s.Key.Pos()), off(s.Key.End()), []piece{{text: "_"}}}}, true
	}
	return nil, false
}

// usedVar reports whether the variable a range clause declares (e, an
// identifier, or nil) is read or named by kept code.
func (ps *pkgState) usedVar(e ast.Expr) bool {
	if e == nil {
		return false
	}
	v := ps.localVar(e.(*ast.Ident))
	return v != nil && (ps.needed[v] || ps.mentioned[v])
}

// unusedDecls names the locals kept statement s declares that no kept
// code reads: each gets _ = v, or the program would not compile.
func (ps *pkgState) unusedDecls(s ast.Stmt) []string {
	var names []string
	check := func(id *ast.Ident) {
		if id.Name == "_" || ps.p.Info.Defs[id] == nil {
			return
		}
		if v := ps.localVar(id); v != nil && !ps.needed[v] && v.Parent() != v.Pkg().Scope() {
			names = append(names, id.Name)
		}
	}
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE {
			for _, l := range s.Lhs {
				check(l.(*ast.Ident))
			}
		}
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, sp := range g.Specs {
				for _, n := range sp.(*ast.ValueSpec).Names {
					check(n)
				}
			}
		}
	}
	return names
}

// headerUses inserts _ = v at p for each variable kept header statement s
// (an if's, for's or switch's init, a select case's receive) declares that
// no kept code reads.
func (ps *pkgState) headerUses(s ast.Stmt, p token.Pos, insert func(token.Pos, string)) {
	if s == nil || !ps.kept[s] {
		return
	}
	for _, v := range ps.unusedDecls(s) {
		insert(p, " _ = "+v+";")
	}
}

// unusedSwitchVar names a type switch's variable when no kept code of any
// clause reads it.
func (ps *pkgState) unusedSwitchVar(s *ast.TypeSwitchStmt) string {
	as, ok := s.Assign.(*ast.AssignStmt)
	if !ok {
		return ""
	}
	for _, c := range s.Body.List {
		if v, ok := ps.p.Info.Implicits[c].(*types.Var); ok && ps.needed[v] {
			return ""
		}
	}
	return as.Lhs[0].(*ast.Ident).Name
}

// unusedImports blanks the imports whose every use the edits removed.
func (ps *pkgState) unusedImports(f *ast.File, edits []edit, off func(token.Pos) int) []edit {
	survives := func(p int) bool {
		for _, e := range edits {
			if p < e.start || p >= e.end {
				continue
			}
			for _, pc := range e.pieces {
				if pc.text == "" && p >= pc.start && p < pc.end {
					return true
				}
			}
			return false
		}
		return true
	}
	used := map[*types.PkgName]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if pn, ok := ps.p.Info.Uses[id].(*types.PkgName); ok && survives(off(id.Pos())) {
				used[pn] = true
			}
		}
		return true
	})
	var out []edit
	for _, spec := range f.Imports {
		var pn *types.PkgName
		if spec.Name != nil {
			pn, _ = ps.p.Info.Defs[spec.Name].(*types.PkgName)
		} else {
			pn, _ = ps.p.Info.Implicits[spec].(*types.PkgName)
		}
		if pn == nil || used[pn] || spec.Name != nil && (spec.Name.Name == "_" || spec.Name.Name == ".") {
			continue
		}
		if spec.Name != nil {
			out = append(out, edit{off(spec.Name.Pos()), off(spec.Name.End()), []piece{{text: "_"}}})
		} else {
			out = append(out, edit{off(spec.Path.Pos()), off(spec.Path.Pos()), []piece{{text: "_ "}}})
		}
	}
	return out
}
