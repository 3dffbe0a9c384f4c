package cli

import "testing"

func TestVetTool(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want bool
	}{
		// The go command's vet-tool protocol.
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"/tmp/go-build1/b001/vet.cfg"}, true},
		{[]string{"-goanomaly.decisions", "/tmp/go-build1/b001/vet.cfg"}, true},
		{[]string{"-json", "-tags", "x", "vet.cfg"}, true},
		// goanomaly's own command lines.
		{nil, false},
		{[]string{"vet", "./..."}, false},
		{[]string{"vet", "-C", "dir", "x.cfg"}, false},
		{[]string{"run", "main.go", "-flags"}, false},
		{[]string{"help"}, false},
		{[]string{"-h"}, false},
		{[]string{"-V"}, false},
		{[]string{"-flags", "vet"}, false},
	} {
		if got := VetTool(tt.args); got != tt.want {
			t.Errorf("VetTool(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}
