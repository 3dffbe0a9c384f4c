package analysis

import (
	"go/ast"
	"go/types"
	"strings"
)

// Calls into other packages. A function the rewriter has no checked clone
// of (the standard library's, another module's) runs as written: what it
// does to the memory its arguments reach is checked at the call, as a
// range, when a short table says what that is — sort.Ints(s) writes every
// element of s, fmt.Sprint(s) reads them, binary.LittleEndian.PutUint32(b, v)
// writes b[0:4], maps.Clone(m) reads the map. Any other argument that
// reaches memory (a pointer, a map, a slice, an interface, a struct holding
// one) is not checked: the call is noted and the construct is not fully
// proven (calls_unchecked.go). A write check where the callee may only read
// would be a false report, so the unknown is never guessed to be a write.

// ArgUse is what a call into another package does to the memory one of
// its arguments reaches, as far as the checks know.
type ArgUse struct {
	Kind ArgKind
	Head int // for ArgReadHead and ArgWriteHead: how many leading elements
}

// ArgKind classifies an argument of a call into another package.
type ArgKind int

const (
	ArgNone      ArgKind = iota // reaches no memory of the program (or only synchronized memory)
	ArgRead                     // every element of the slice, or the map, is read
	ArgWrite                    // every element of the slice, or the map, is written
	ArgReadHead                 // the first Head elements of the slice are read
	ArgWriteHead                // the first Head elements of the slice are written
	ArgUnknown                  // reaches memory the checks cannot follow
)

// ForeignCall reports whether call runs a function of another package as
// written (no checked clone, not a synchronisation method), and then what
// it does to each argument (one ArgUse per call.Args).
func (r *Result) ForeignCall(info *types.Info, call *ast.CallExpr) ([]ArgUse, bool) {
	fn := Callee(info, call.Fun)
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == r.finder.pkg || r.Clones[fn.Origin()] || syncPackage(fn) || libraryGoroutine(fn) {
		return nil, false
	}
	if fn.Pkg().Path() == "reflect" {
		return nil, false // noted as reflection
	}
	uses := make([]ArgUse, len(call.Args))
	for i, a := range call.Args {
		uses[i] = argUse(info, fn, i, a)
	}
	return uses, true
}

// argUse is ForeignCall's verdict on the i-th argument a of fn.
func argUse(info *types.Info, fn *types.Func, i int, a ast.Expr) ArgUse {
	t := info.TypeOf(a)
	if t == nil || pointerFree(t) {
		return ArgUse{}
	}
	switch underlying(t).(type) {
	case *types.Signature, *types.Chan:
		return ArgUse{} // a function literal is noted on its own; channels synchronize
	case *types.Basic:
		return ArgUse{} // unsafe.Pointer handed on: noted by the unsafe rules
	}
	if isStdFile(t) && strings.HasPrefix(fn.Name(), "Fprint") && i == 0 {
		return ArgUse{} // an *os.File: its writes are synchronized by the file
	}
	k, head := stdEffect(fn, i)
	if k == ArgUnknown {
		return ArgUse{Kind: ArgUnknown}
	}
	switch u := underlying(t).(type) {
	case *types.Slice:
		if pointerFree(u.Elem()) {
			return ArgUse{Kind: k, Head: head}
		}
	case *types.Map:
		if (k == ArgRead || k == ArgWrite) && pointerFree(u.Key()) && pointerFree(u.Elem()) {
			return ArgUse{Kind: k}
		}
	}
	return ArgUse{Kind: ArgUnknown}
}

func isStdFile(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "os" && n.Obj().Name() == "File"
}

// stdEffect is the table: what the standard function fn does to the memory
// its i-th argument reaches. Anything not listed is ArgUnknown.
func stdEffect(fn *types.Func, i int) (ArgKind, int) {
	pkg, name := fn.Pkg().Path(), fn.Name()
	recv := ""
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		if n, ok := types.Unalias(derefType(sig.Recv().Type())).(*types.Named); ok {
			recv = n.Obj().Name()
		}
	}
	switch pkg {
	case "math", "math/bits", "math/cmplx", "cmp", "unicode", "unicode/utf16", "errors":
		if recv == "" {
			return ArgRead, 0
		}
	case "unicode/utf8":
		if strings.HasPrefix(name, "Encode") || strings.HasPrefix(name, "Append") ||
			strings.HasPrefix(name, "Decode") || strings.HasPrefix(name, "FullRune") {
			break // writes, or reads only the first rune: a read of all would be a false report
		}
		return ArgRead, 0
	case "strings":
		if recv == "" {
			return ArgRead, 0 // strings.Join reads its slice of strings; the rest take strings
		}
	case "strconv":
		if recv == "" && !strings.HasPrefix(name, "Append") {
			return ArgRead, 0
		}
	case "bytes":
		if recv == "" && !bytesRetains(name) {
			return ArgRead, 0 // bytes functions return new slices or subslices; none writes its operands
		}
	case "fmt":
		if strings.HasPrefix(name, "Sprint") || strings.HasPrefix(name, "Print") || name == "Errorf" ||
			strings.HasPrefix(name, "Fprint") && i > 0 || strings.HasPrefix(name, "Append") && i > 0 {
			return ArgRead, 0
		}
	case "slices":
		switch name {
		case "Sort", "SortFunc", "SortStableFunc", "Reverse":
			if i == 0 {
				return ArgWrite, 0
			}
		case "Index", "IndexFunc", "Contains", "ContainsFunc", "Equal", "EqualFunc", "Compare", "CompareFunc",
			"Max", "MaxFunc", "Min", "MinFunc", "IsSorted", "IsSortedFunc", "Clone":
			return ArgRead, 0
		}
	case "sort":
		switch name {
		case "Ints", "Float64s", "Strings", "Slice", "SliceStable", "Sort", "Stable":
			if i == 0 && recv == "" {
				return ArgWrite, 0
			}
		case "SearchInts", "SearchFloat64s", "SearchStrings", "IntsAreSorted", "Float64sAreSorted",
			"StringsAreSorted", "SliceIsSorted", "IsSorted":
			if recv == "" {
				return ArgRead, 0
			}
		}
	case "maps":
		switch name {
		case "Clone", "Equal", "EqualFunc":
			return ArgRead, 0
		case "Copy":
			if i == 0 {
				return ArgWrite, 0
			}
			return ArgRead, 0
		case "DeleteFunc":
			if i == 0 {
				return ArgWrite, 0
			}
		}
	case "encoding/binary":
		if i == 0 && (recv == "littleEndian" || recv == "bigEndian" || recv == "nativeEndian") {
			switch name {
			case "Uint16":
				return ArgReadHead, 2
			case "Uint32":
				return ArgReadHead, 4
			case "Uint64":
				return ArgReadHead, 8
			case "PutUint16":
				return ArgWriteHead, 2
			case "PutUint32":
				return ArgWriteHead, 4
			case "PutUint64":
				return ArgWriteHead, 8
			}
		}
	}
	return ArgUnknown, 0
}

// bytesRetains reports whether the bytes function keeps its slice for
// later use by methods the checks do not follow (a Buffer, a Reader).
func bytesRetains(name string) bool {
	return strings.HasPrefix(name, "New")
}

func derefType(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}
