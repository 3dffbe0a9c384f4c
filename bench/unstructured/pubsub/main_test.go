package main

import (
	"slices"
	"testing"
)

// reference delivers every message to every subscriber of its topic in
// one loop.
func reference(pubs, subs, msgs, topics int) result {
	var r result
	for p := range pubs {
		for i := range msgs {
			seq := p*msgs + i
			m := &Message{Topic: seq % topics, Seq: seq, Payload: payload(p, i)}
			for s := range subs {
				if !slices.Contains(topicsOf(s, topics), m.Topic) {
					continue
				}
				h := uint64(m.Seq)
				for _, b := range m.Payload {
					h = h*31 + uint64(b)
				}
				r.delivered++
				r.sum += h
			}
		}
	}
	return r
}

func TestPubSub(t *testing.T) {
	for _, c := range [][4]int{{1, 1, 100, 1}, {3, 5, 200, 4}, {4, 16, 300, 8}} {
		got, want := run(c[0], c[1], c[2], c[3]), reference(c[0], c[1], c[2], c[3])
		if got != want || got.delivered == 0 {
			t.Errorf("%v: %+v, want %+v", c, got, want)
		}
	}
}
