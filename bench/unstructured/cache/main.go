// Command cache is the unstructured kernel of a mutex-heavy cache: a map
// under a sync.RWMutex (Get under the read lock, Put under the write lock),
// and hit/miss statistics under a sync.Mutex of their own. -clients
// goroutines each do -ops lookups of keys drawn from a skewed distribution
// over -keys keys; a miss computes the value (slowly) and puts it. The
// clients are started and waited for with a WaitGroup in a helper, and
// report their sums on a channel. It prints a checksum.
package main

import (
	"flag"
	"fmt"
	"sync"
)

// value is what the cache holds for a key: computed once, then only read.
type value struct {
	key    int
	digest uint64
	parts  [4]uint32
}

// stats counts lookups.
type stats struct {
	mu     sync.Mutex
	hits   int
	misses int
}

func (s *stats) record(hit bool) {
	s.mu.Lock()
	if hit {
		s.hits++
	} else {
		s.misses++
	}
	s.mu.Unlock()
}

// Cache is a concurrent map from int keys to computed values.
type Cache struct {
	mu    sync.RWMutex
	items map[int]*value
	stats stats
}

func NewCache() *Cache {
	return &Cache{items: make(map[int]*value)}
}

func (c *Cache) Get(key int) (*value, bool) {
	c.mu.RLock()
	v, ok := c.items[key]
	c.mu.RUnlock()
	c.stats.record(ok)
	return v, ok
}

func (c *Cache) Put(key int, v *value) {
	c.mu.Lock()
	if _, ok := c.items[key]; !ok {
		c.items[key] = v
	}
	c.mu.Unlock()
}

func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.items)
}

// compute is the slow path of a miss.
func compute(key int) *value {
	v := &value{key: key}
	x := uint64(key)*0x9e3779b97f4a7c15 + 7
	for range 200 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	v.digest = x
	for i := range v.parts {
		v.parts[i] = uint32(x >> (8 * i))
	}
	return v
}

// nextKey draws a key from a skewed distribution: most lookups go to a
// small hot set.
func nextKey(x *uint64, keys int) int {
	*x ^= *x << 13
	*x ^= *x >> 7
	*x ^= *x << 17
	r := *x
	if r%10 < 8 {
		return int(r>>8) % (keys / 16)
	}
	return int(r>>8) % keys
}

// client does ops lookups and returns the sum of what it got.
func client(c *Cache, seed, ops, keys int) uint64 {
	x := uint64(seed)*0x2545f4914f6cdd1d + 1
	var sum uint64
	for range ops {
		k := nextKey(&x, keys)
		v, ok := c.Get(k)
		if !ok {
			v = compute(k)
			c.Put(k, v)
		}
		sum += v.digest + uint64(v.parts[k%4])
	}
	return sum
}

// result is the checksum of a run.
type result struct {
	sum     uint64
	entries int
	lookups int
}

func run(clients, ops, keys int) result {
	c := NewCache()
	sums := make(chan uint64, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums <- client(c, i, ops, keys)
		}()
	}
	wg.Wait()
	close(sums)
	var r result
	for s := range sums {
		r.sum += s
	}
	r.entries = c.Len()
	c.stats.mu.Lock()
	r.lookups = c.stats.hits + c.stats.misses
	c.stats.mu.Unlock()
	return r
}

func main() {
	clients := flag.Int("clients", 8, "client goroutines")
	ops := flag.Int("ops", 500000, "lookups per client")
	keys := flag.Int("keys", 100000, "distinct keys")
	flag.Parse()
	r := run(*clients, *ops, *keys)
	fmt.Printf("cache clients=%d ops=%d keys=%d: %d lookups, %d entries, sum %016x\n", *clients, *ops, *keys, r.lookups, r.entries, r.sum)
}
