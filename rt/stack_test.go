package rt

import (
	"io"
	"slices"
	"sort"
	"strings"
	"testing"
)

func TestDemangle(t *testing.T) {
	for in, want := range map[string]string{
		"main._ga_leaf":                          "main.leaf",
		"main._ga_main.func1":                    "main.main.func1",
		"example.com/m/lib.Add_ga_":              "example.com/m/lib.Add",
		"example.com/m/lib.(*Acc).Put_ga_":       "example.com/m/lib.(*Acc).Put",
		"example.com/m/lib.(*acc)._ga_put.func2": "example.com/m/lib.(*acc).put.func2",
		"example.com/m/lib.Map_ga_[...]":         "example.com/m/lib.Map[...]",
		"example.com/_ga_x/lib._ga_":             "example.com/_ga_x/lib._ga_", // the path and a bare marker stay
		"main.main":                              "main.main",
	} {
		if got := demangle(in); got != want {
			t.Errorf("demangle(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCallerStackSkipsRT: the stack starts at the caller of the check,
// never inside this package, and gives the site's line to the innermost
// frame.
func TestCallerStackSkipsRT(t *testing.T) {
	st := callerStack(0)
	if len(st) == 0 {
		t.Fatal("empty stack")
	}
	for _, f := range st {
		if strings.HasPrefix(f.Func, rtPrefix) || strings.HasPrefix(f.Func, "runtime.") {
			t.Errorf("frame %s is goanomaly's or the runtime's: %v", f.Func, st)
		}
	}
	if st[0].Func != "testing.tRunner" {
		t.Errorf("innermost frame %s, want testing.tRunner (this test is rt's own)", st[0].Func)
	}
}

// A go statement of a function with arguments starts it through
// reflect.MakeFunc (Spawned): the reflect frames that relay the call are
// goanomaly's, not the user's, and a report does not print them. The
// stack is taken in a callback of sort.Slice, whose frames are neither
// rt's nor the runtime's, so they are printed.
func TestCallerStackSkipsSpawnRelay(t *testing.T) {
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	p := e.root()
	var st []frame
	done := make(chan bool)
	f := Spawned(p.task.Go(), func(xs []int) {
		sort.Slice(xs, func(i, j int) bool {
			if st == nil {
				st = callerStack(0)
			}
			return xs[i] < xs[j]
		})
		done <- true
	})
	go f([]int{3, 1, 2})
	<-done
	if !slices.ContainsFunc(st, func(f frame) bool { return f.Func == "sort.Slice" }) {
		t.Fatalf("no frame of sort.Slice: %v", st)
	}
	for _, fr := range st {
		if strings.HasPrefix(fr.Func, "reflect.") {
			t.Errorf("frame %s relays Spawned's call: %v", fr.Func, st)
		}
	}
}
