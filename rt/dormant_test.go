package rt

import (
	"io"
	"testing"
)

// decisions returns the instance numbers next gives for n root instances
// under the options in env.
func decisions(env string, n int) []uint64 {
	var d dormant
	d.configure(parseOptions(env, io.Discard))
	out := make([]uint64, n)
	for i := range out {
		out[i] = d.next()
	}
	return out
}

func TestDormantModes(t *testing.T) {
	for _, tt := range []struct {
		env  string
		mode uint8
	}{
		{"", dormantOff}, {"check=0", dormantOff}, {"check=1", dormantAll},
		{"sample=0.5", dormantSample}, {"check=1 sample=0.1", dormantSample},
		{"check=0 sample=1", dormantOff}, {"sample=2", dormantOff}, {"check=yes", dormantOff},
	} {
		var d dormant
		d.configure(parseOptions(tt.env, io.Discard))
		if d.mode != tt.mode {
			t.Errorf("%q: mode %d, want %d", tt.env, d.mode, tt.mode)
		}
	}
}

func TestSampleDecision(t *testing.T) {
	count := func(ks []uint64) (n int) {
		for i, k := range ks {
			if k != 0 {
				if k != uint64(i+1) {
					t.Fatalf("instance %d numbered %d", i+1, k)
				}
				n++
			}
		}
		return n
	}
	const n = 10000
	if c := count(decisions("sample=0", n)); c != 0 {
		t.Errorf("sample=0 checked %d", c)
	}
	if c := count(decisions("sample=1", n)); c != n {
		t.Errorf("sample=1 checked %d of %d", c, n)
	}
	if c := count(decisions("check=1", n)); c != n {
		t.Errorf("check=1 checked %d of %d", c, n)
	}
	half := decisions("sample=0.5 sample_seed=7", n)
	if c := count(half); c < n*45/100 || c > n*55/100 {
		t.Errorf("sample=0.5 checked %d of %d", c, n)
	}
	if c := count(decisions("sample=0.01 sample_seed=7", n)); c < 50 || c > 150 {
		t.Errorf("sample=0.01 checked %d of %d", c, n)
	}
	again := decisions("sample=0.5 sample_seed=7", n)
	other := decisions("sample=0.5 sample_seed=8", n)
	same, diff := true, false
	for i := range half {
		same = same && half[i] == again[i]
		diff = diff || half[i] != other[i]
	}
	if !same {
		t.Error("the same seed sampled different instances")
	}
	if !diff {
		t.Error("seeds 7 and 8 sampled the same instances")
	}
}

func TestSampleCounts(t *testing.T) {
	var d dormant
	d.configure(parseOptions("sample=0.5 sample_seed=3", io.Discard))
	for range 1000 {
		d.next()
	}
	if c, s := d.checked.Load(), d.skipped.Load(); c+s != 1000 || c == 0 || s == 0 {
		t.Errorf("checked %d, skipped %d of 1000", c, s)
	}
}

func TestSampleAllocs(t *testing.T) {
	var d dormant
	d.configure(parseOptions("sample=0.5", io.Discard))
	if a := testing.AllocsPerRun(1000, func() { d.next() }); a != 0 {
		t.Errorf("%v allocations per decision", a)
	}
}

// BenchmarkSampleOff is what a dormant binary pays per root instance with
// checking off.
func BenchmarkSampleOff(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if Sample() != 0 {
			n++
		}
	}
	_ = n
}
