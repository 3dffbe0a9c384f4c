// b.RunParallel bodies (run by the testing package on goroutines of its
// own, which review19 makes threads for each run of the literal): local
// state, an atomic counter, a sync.Pool and a mutex-guarded map, read
// after the benchmark. Correct: go test -race is silent.
package runparallel

import (
	"bytes"
	"sync"
	"sync/atomic"
	"testing"
)

var pool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func BenchmarkParallel(b *testing.B) {
	var n atomic.Int64
	var mu sync.Mutex
	seen := map[int]int{}
	cfg := []int{1, 2, 3}
	b.RunParallel(func(pb *testing.PB) {
		local := 0
		for pb.Next() {
			buf := pool.Get().(*bytes.Buffer)
			buf.Reset()
			buf.WriteString("x")
			local += buf.Len() + cfg[local%3]
			pool.Put(buf)
			n.Add(1)
		}
		mu.Lock()
		seen[local%7]++
		mu.Unlock()
	})
	mu.Lock()
	total := 0
	for _, v := range seen {
		total += v
	}
	mu.Unlock()
	if n.Load() < int64(b.N) || total == 0 {
		b.Fatal(n.Load(), total)
	}
}
