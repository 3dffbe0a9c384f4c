package main

import "testing"

// reference replays every client's lookups one after the other on a plain
// map: whatever the schedule, each lookup yields the key's value.
func reference(clients, ops, keys int) result {
	m := map[int]*value{}
	var r result
	for i := range clients {
		x := uint64(i)*0x2545f4914f6cdd1d + 1
		for range ops {
			k := nextKey(&x, keys)
			v, ok := m[k]
			if !ok {
				v = compute(k)
				m[k] = v
			}
			r.sum += v.digest + uint64(v.parts[k%4])
			r.lookups++
		}
	}
	r.entries = len(m)
	return r
}

func TestCache(t *testing.T) {
	for _, clients := range []int{1, 4, 9} {
		got, want := run(clients, 3000, 1600), reference(clients, 3000, 1600)
		if got != want {
			t.Errorf("clients=%d: %+v, want %+v", clients, got, want)
		}
	}
}
