package rt

import (
	"bytes"
	"sync"
	"testing"
)

// TestHBStressReadSets is a pub/sub with real goroutines: publishers fill
// messages and hand each to several subscribers over channels; the
// subscribers read every byte concurrently (read sets in extensions that
// grow to larger records while other goroutines take and give back
// records) and acknowledge. Race-free: no report may come.
func TestHBStressReadSets(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 500
	}
	var out bytes.Buffer
	root, e := hbTestRoot(t, "", &out)
	const pubs, subs = 4, 12
	var wg sync.WaitGroup
	for p := range pubs {
		wg.Add(1)
		hbGo(root, func(k *Task) {
			defer wg.Done()
			ins := make([]chan *[24]byte, subs)
			acks := make(chan struct{}, subs)
			for s := range ins {
				ins[s] = make(chan *[24]byte, 1)
				hbGo(k, func(r *Task) {
					for m := range ins[s] {
						r.ChanRecv(ins[s]) // as the rewriter hooks a range over a channel
						r.After()
						for i := range m {
							r.Read(addrOf(&m[i]), 2)
						}
						r.ChanSend(acks)
						acks <- struct{}{}
						r.After()
					}
				})
			}
			for range n {
				m := New(k, new([24]byte))
				for i := range m {
					k.Write(addrOf(&m[i]), 1)
					m[i] = byte(p + i)
				}
				for s := range ins[:1+p%4*3] { // 1, 4, 7 or 10 readers: read sets grow past several record classes
					k.ChanSend(ins[s])
					ins[s] <- m
					k.After()
				}
				for range 1 + p%4*3 {
					k.ChanRecv(acks)
					<-acks
					k.After()
				}
			}
			for _, in := range ins {
				close(in)
			}
		})
	}
	wg.Wait()
	if races(e) != 0 {
		t.Fatalf("%d races reported in a race-free pub/sub:\n%.2000s", races(e), &out)
	}
}
