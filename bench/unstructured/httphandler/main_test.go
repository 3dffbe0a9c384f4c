package main

import (
	"fmt"
	"strconv"
	"testing"
)

// reference applies every client's adds to a plain map.
func reference(clients, reqs, keys int) string {
	m := map[string]int{}
	adds := 0
	for id := range clients {
		for i := range reqs {
			if i%3 == 2 {
				continue
			}
			m[strconv.Itoa((id*31+i*7)%keys)] += i%5 + 1
			adds++
		}
	}
	total := 0
	for _, v := range m {
		total += v
	}
	return fmt.Sprintf("%d %d %d", total, len(m), adds)
}

func TestHTTPHandler(t *testing.T) {
	for _, c := range [][3]int{{1, 10, 3}, {4, 50, 16}} {
		got, err := run(c[0], c[1], c[2])
		if want := reference(c[0], c[1], c[2]); err != nil || got != want {
			t.Errorf("%v: %q, %v; want %q", c, got, err, want)
		}
	}
}
