package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version prints "goanomaly version <module version> [<vcs revision>] <go version> <os>/<arch>".
func version(w io.Writer) int {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		rev, dirty := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if rev != "" {
			if dirty {
				rev += "+dirty"
			}
			v += " " + rev
		}
	}
	fmt.Fprintf(w, "goanomaly version %s %s %s/%s\n", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return 0
}
