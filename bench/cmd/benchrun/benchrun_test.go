package main

import (
	"testing"
	"time"
)

func TestParseChecks(t *testing.T) {
	for in, want := range map[string]int64{
		"goanomaly: summary: 1 tree(s), 2 construct(s), 30 block(s), 12345 check(s); 0 data race(s)\n": 12345,
		`{"summary":{"checks":77,"data_races":0}}` + "\n":                                              77,
		"checksum 12 checks\n": -1, // not a summary line
		"":                     -1,
	} {
		if got := parseChecks(in); got != want {
			t.Errorf("parseChecks(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestMedian(t *testing.T) {
	if got := median([]time.Duration{3, 1, 2}); got != 2 {
		t.Errorf("median of 3 = %v", got)
	}
	if got := median([]int64{4, 1, 3, 2}); got != 2 {
		t.Errorf("median of 4 = %v", got)
	}
	if got := median([]int64(nil)); got != 0 {
		t.Errorf("median of none = %v", got)
	}
}
