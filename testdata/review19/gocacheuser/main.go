// A program using github.com/patrickmn/go-cache from many goroutines: a
// goroutine builds a session and Sets it, others Get it and read its
// fields; an OnEvicted callback records evictions under a mutex; the
// janitor expires items. Correct: go run -race is silent.
package main

import (
	"fmt"
	"sync"
	"time"

	"github.com/patrickmn/go-cache"
)

type session struct {
	user  string
	roles []string
	seen  map[string]int
}

func main() {
	c := cache.New(5*time.Millisecond, 2*time.Millisecond)
	var mu sync.Mutex
	evicted := []string{}
	c.OnEvicted(func(k string, v any) {
		mu.Lock()
		evicted = append(evicted, k)
		mu.Unlock()
	})
	ready := make(chan string, 8)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				k := fmt.Sprintf("s%d-%d", w, i)
				s := &session{user: k, roles: []string{"r"}, seen: map[string]int{}}
				s.seen["login"] = i
				c.Set(k, s, cache.DefaultExpiration)
				if i%5 == 0 {
					ready <- k
				}
			}
		}()
	}
	go func() { wg.Wait(); close(ready) }()
	found := 0
	var rw sync.WaitGroup
	for k := range ready {
		rw.Add(1)
		go func() {
			defer rw.Done()
			if v, ok := c.Get(k); ok {
				s := v.(*session)
				_ = s.user + s.roles[0]
				_ = s.seen["login"]
				mu.Lock()
				found++
				mu.Unlock()
			}
		}()
	}
	rw.Wait()
	n, _ := c.IncrementInt("counter", 1)
	c.SetDefault("counter", 0)
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	e := len(evicted)
	mu.Unlock()
	fmt.Println(found >= 0, n, e >= 0, c.ItemCount() >= 0)
}
