package rt

import (
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
