// Planted races, one per case (the argument), each a race go run -race
// reports on every run; goanomaly run -hb should report each.
package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

type conf struct{ n int }

type bus struct {
	mu   sync.Mutex
	subs []func(int)
}

func (b *bus) sub(f func(int)) { b.mu.Lock(); b.subs = append(b.subs, f); b.mu.Unlock() }
func (b *bus) pub(v int) {
	b.mu.Lock()
	s := append([]func(int){}, b.subs...)
	b.mu.Unlock()
	for _, f := range s {
		f(v)
	}
}

type tally struct{ total int }

func (t *tally) add(v int) { t.total += v }

func main() {
	x := 0
	switch os.Args[1] {
	case "afterfunc":
		time.AfterFunc(time.Millisecond, func() { x = 1 })
		time.Sleep(5 * time.Millisecond)
		x = 2
	case "ctxafter":
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan bool)
		context.AfterFunc(ctx, func() { x = 1; done <- true })
		go func() { time.Sleep(time.Millisecond); cancel() }()
		x = 2
		<-done
	case "atomicptr":
		var p atomic.Pointer[conf]
		p.Store(&conf{})
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() { defer wg.Done(); p.Load().n++ }()
		}
		wg.Wait()
	case "methodvalue":
		var t tally
		b := &bus{}
		b.sub(t.add)
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Add(1)
			go func() { defer wg.Done(); b.pub(i) }()
		}
		wg.Wait()
	case "once":
		var once sync.Once
		var c *conf
		done := make(chan bool)
		for range 2 {
			go func() {
				once.Do(func() { c = &conf{} })
				c.n++
				done <- true
			}()
		}
		<-done
		<-done
	case "syncmaprange":
		var m sync.Map
		m.Store(1, 1)
		done := make(chan bool)
		for range 2 {
			go func() {
				m.Range(func(k, v any) bool { x++; return true })
				done <- true
			}()
		}
		<-done
		<-done
	case "handler":
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { v := x; time.Sleep(2 * time.Millisecond); x = v + 1 }))
		defer srv.Close()
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if resp, err := http.Get(srv.URL); err == nil {
					resp.Body.Close()
				}
			}()
		}
		wg.Wait()
	case "handlefunc":
		mux := http.NewServeMux()
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { v := x; time.Sleep(2 * time.Millisecond); x = v + 1 })
		srv := httptest.NewServer(mux)
		defer srv.Close()
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if resp, err := http.Get(srv.URL); err == nil {
					resp.Body.Close()
				}
			}()
		}
		wg.Wait()
	case "selectflag":
		stop := false
		done := make(chan bool)
		go func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				if stop {
					x = i
				}
				time.Sleep(100 * time.Microsecond)
			}
		}()
		time.Sleep(time.Millisecond)
		stop = true
		time.Sleep(time.Millisecond)
		done <- true
	case "wgreuse":
		var wg sync.WaitGroup
		res := 0
		wg.Add(1)
		go func() { defer wg.Done(); res = 1 }()
		go func() { res = 2 }()
		wg.Wait()
		time.Sleep(time.Millisecond)
		fmt.Println(res)
	}
	fmt.Println(x >= 0)
}
