package slice

import (
	"bytes"
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// account lists, for each function of file i, the decision about each of
// its simple statements (assignments, increments, calls, var
// declarations), for goanomaly vet -slice.
func (ps *pkgState) account(i int) []Func {
	f, src := ps.p.Files[i], ps.p.Src[i]
	tf := ps.p.Fset.File(f.Pos())
	var funcs []Func
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || strings.HasPrefix(fd.Name.Name, "_ga_") && fd.Name.Name != "_ga_main" {
			continue
		}
		fn := Func{Pos: ps.p.Fset.PositionFor(fd.Pos(), false), Name: FuncName(fd), File: ps.p.Names[i]}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			s, ok := n.(ast.Stmt)
			if !ok || !ps.visited[s] || ps.why[s] == "header" {
				return true
			}
			switch s.(type) {
			case *ast.AssignStmt, *ast.IncDecStmt, *ast.ExprStmt, *ast.DeclStmt:
			default:
				return true
			}
			if ps.why[s] == "declaration" || ps.rtOnly(s) {
				return true
			}
			text := string(src[tf.Offset(s.Pos()):tf.Offset(s.End())])
			if strings.HasPrefix(text, "_ga_") || strings.HasPrefix(text, "var _ga_") {
				return true // the rewriter's own bookkeeping
			}
			pos, exact := ps.stmtPos(src, tf.Offset(s.Pos()), s.Pos())
			if !exact {
				pos.Line -= fn.Pos.Line // lines from the function's, in the file as written
			}
			fn.Lines = append(fn.Lines, Line{
				Pos: pos, Exact: exact, Text: shorten(text),
				Dropped: !ps.kept[s], Why: ps.why[s],
			})
			return true
		})
		funcs = append(funcs, fn)
	}
	return funcs
}

// stmtPos is the position of a statement starting at src[off]: exact
// when a /*line*/ directive of the rewriter precedes it on its line (the
// directive names the statement's column; a space follows it), else the
// position in the file as written.
func (ps *pkgState) stmtPos(src []byte, off int, p token.Pos) (token.Position, bool) {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	if !bytes.Contains(src[start:off], []byte("/*line ")) {
		return ps.p.Fset.PositionFor(p, false), false
	}
	pos := ps.p.Fset.PositionFor(p, true)
	if off >= 3 && string(src[off-3:off]) == "*/ " {
		pos.Column--
	}
	return pos, true
}

// rtOnly reports whether s is a call statement of the runtime (inserted
// by the rewriter; always kept, not worth a line).
func (ps *pkgState) rtOnly(s ast.Stmt) bool {
	e, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := ast.Unparen(e.X).(*ast.CallExpr)
	return ok && ps.rtCall(call) != ""
}

// FuncName names a function declaration as the account does: f, (T).f or
// (*T).f; the rewriter's _ga_main (the user's main) is main.
func FuncName(fd *ast.FuncDecl) string {
	name := fd.Name.Name
	if name == "_ga_main" {
		name = "main"
	}
	if fd.Recv != nil && len(fd.Recv.List) > 0 {
		var b strings.Builder
		t := fd.Recv.List[0].Type
		if st, ok := t.(*ast.StarExpr); ok {
			b.WriteString("*")
			t = st.X
		}
		if ix, ok := t.(*ast.IndexExpr); ok {
			t = ix.X
		}
		if id, ok := t.(*ast.Ident); ok {
			b.WriteString(id.Name)
		}
		return "(" + b.String() + ")." + name
	}
	return name
}

// shorten makes a statement's text one line of at most 60 bytes, without
// the rewriter's runtime calls' clutter.
func shorten(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// At returns f's account with positions as the user wrote them, given
// where the function is declared in the user's file.
func (f Func) At(decl token.Position) Func {
	out := f
	out.Pos = decl
	out.Lines = nil
	for _, l := range f.Lines {
		if !l.Exact {
			l.Pos = token.Position{Filename: decl.Filename, Line: decl.Line + l.Pos.Line, Column: l.Pos.Column}
			l.Exact = true
		}
		out.Lines = append(out.Lines, l)
	}
	return out
}

// String formats a line as goanomaly vet prints it.
func (l Line) String() string {
	verb := "kept"
	if l.Dropped {
		verb = "dropped"
	}
	return l.Pos.String() + ": slice: " + verb + " " + l.Text + ": " + l.Why
}

// Summary is the function's line in goanomaly vet -slice.
func (f Func) Summary() string {
	kept, dropped := 0, 0
	for _, l := range f.Lines {
		if l.Dropped {
			dropped++
		} else {
			kept++
		}
	}
	return f.Pos.String() + ": slice: func " + f.Name + ": " + strconv.Itoa(kept) + " statement(s) kept, " + strconv.Itoa(dropped) + " dropped"
}
