package rt

import (
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
)

// The stack of a report's current access, as the race detector prints it.
// Every report is found by the goroutine making the second access, in its
// check, so the goroutine's own stack at that moment is the sink's. The
// earlier access left only its site in the shadow word: keeping a stack per
// access is the history -race pays for, and a site already names the
// statement.

// maxStack is how many frames a report prints at most.
const maxStack = 32

// frame is one line pair of a printed stack.
type frame struct {
	Func string `json:"func"`
	Pos  string `json:"pos"` // file:line, in the user's file (the rewrite's //line directives)
}

// rtPrefix is the import path of this package followed by a dot: frames
// of the checks themselves are not the user's.
var rtPrefix = func() string {
	name := runtime.FuncForPC(reflect.ValueOf(newReporter).Pointer()).Name()
	return name[:strings.LastIndex(name, ".")+1]
}()

// rtDir is the directory of this package's source followed by a slash:
// a closure of one of its generic functions inlined into the user's code
// is named after the user's function (main.start.Spawned2[...].func1),
// so its file says whose frame it is.
var rtDir = func() string {
	file, _ := runtime.FuncForPC(reflect.ValueOf(newReporter).Pointer()).FileLine(reflect.ValueOf(newReporter).Pointer())
	return file[:strings.LastIndex(file, "/")+1]
}()

// callerStack returns the calling goroutine's stack without goanomaly's
// own frames, with the checked clones' names given back their users' names.
// The innermost frame's line is the access's own, site's: the rewrite
// inserts statements (a coalesced loop's span check) without a //line
// directive of their own, so the line the runtime gives such a call is
// the statement's before it plus the lines between. It allocates: it runs
// once per distinct report, never per check.
func callerStack(site Site) []frame {
	var pcs [maxStack + 16]uintptr
	n := runtime.Callers(2, pcs[:])
	return atSite(userFrames(pcs[:n]), site)
}

// atSite puts the innermost frame of st at site's line and returns st:
// the call that took the stack may sit on another line than the
// statement (an inserted check, a go statement's last argument).
func atSite(st []frame, site Site) []frame {
	if info, ok := siteInfo(site); ok && len(st) > 0 {
		if file, line, _ := splitPos(info.Pos); line > 0 {
			st[0].Pos = fmt.Sprintf("%s:%d", file, line)
		}
	}
	return st
}

// userFrames returns the frames of the program counters pcs without
// goanomaly's own, with the checked clones' names given back their
// users' names.
func userFrames(pcs []uintptr) []frame {
	frames := runtime.CallersFrames(pcs)
	var out []frame
	relay := 0 // reflect's frames at the end of out, not yet known to be the user's
	last := "" // the function of out's last frame, as the runtime names it
	for len(out) < maxStack {
		f, more := frames.Next()
		switch {
		case f.Function == "" || strings.HasPrefix(f.Function, "runtime."):
			// The runtime's frames (runtime.main, goexit) are not the
			// program's; -race, which sees only instrumented functions,
			// omits them too.
		case strings.HasPrefix(f.Function, rtPrefix) || strings.HasPrefix(f.File, rtDir):
			// A go statement of a function with arguments starts it
			// through reflect.MakeFunc (Spawned): the reflect frames
			// between it and its caller are goanomaly's too.
			out = out[:len(out)-relay]
			relay = 0
		default:
			fr := frame{Func: demangle(f.Function), Pos: fmt.Sprintf("%s:%d", f.File, f.Line)}
			// main and a test function call their checked clone
			// (func main() { _ga_main(); … }): one frame of the two.
			// A function that calls itself keeps every frame.
			if len(out) > 0 && out[len(out)-1].Func == fr.Func && last != f.Function {
				break
			}
			out = append(out, fr)
			last = f.Function
			if strings.HasPrefix(f.Function, "reflect.") {
				relay++
			} else {
				relay = 0
			}
		}
		if !more {
			break
		}
	}
	return out
}

// demangle gives a function name the user's names back: the rewrite names
// the checked clone of f _ga_f and of an exported F F_ga_ (rewrite's
// cloneName), and main's body _ga_main.
func demangle(fn string) string {
	slash := strings.LastIndex(fn, "/") + 1
	parts := strings.Split(strings.ReplaceAll(fn[slash:], "[...]", "\x00"), ".") // a generic's [...] holds dots
	for i, p := range parts {
		if i == 0 {
			continue // the package name
		}
		p, generic := strings.CutSuffix(p, "\x00")
		star := strings.HasPrefix(p, "(*") && strings.HasSuffix(p, ")")
		if star {
			p = p[2 : len(p)-1]
		}
		if q, ok := strings.CutPrefix(p, "_ga_"); ok && q != "" {
			p = q
		} else if q, ok := strings.CutSuffix(p, "_ga_"); ok && q != "" {
			p = q
		}
		if star {
			p = "(*" + p + ")"
		}
		if generic {
			p += "[...]"
		}
		parts[i] = p
	}
	return fn[:slash] + strings.ReplaceAll(strings.Join(parts, "."), "\x00", "[...]")
}

// printStack writes a stack indented as the race detector's.
func printStack(w io.Writer, st []frame) {
	for _, f := range st {
		fmt.Fprintf(w, "  %s()\n      %s\n", f.Func, f.Pos)
	}
}
