// Command httphandler is the unstructured kernel of a net/http handler
// test: an httptest server whose handler keeps a counter store (a map under
// a sync.Mutex) and a request log, driven by -clients client goroutines
// that each send -reqs requests (adds and reads) over keep-alive
// connections. After the clients are done, one more request reads the
// store's total. It prints a checksum.
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
)

// Store is the server's shared state.
type Store struct {
	mu       sync.Mutex
	counts   map[string]int
	requests int
	adds     int
}

func NewStore() *Store { return &Store{counts: map[string]int{}} }

// ServeHTTP serves /add?key=K&n=N (adds N to K's count, answers the new
// count), /get?key=K (answers K's count) and /total (the sum of the counts
// and the number of adds).
func (s *Store) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	key := q.Get("key")
	switch r.URL.Path {
	case "/add":
		n, err := strconv.Atoi(q.Get("n"))
		if err != nil {
			http.Error(w, "bad n", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.requests++
		s.adds++
		s.counts[key] += n
		v := s.counts[key]
		s.mu.Unlock()
		fmt.Fprint(w, v)
	case "/get":
		s.mu.Lock()
		s.requests++
		v := s.counts[key]
		s.mu.Unlock()
		fmt.Fprint(w, v)
	case "/total":
		s.mu.Lock()
		total := 0
		for _, v := range s.counts {
			total += v
		}
		fmt.Fprintf(w, "%d %d %d", total, len(s.counts), s.adds)
		s.mu.Unlock()
	default:
		http.NotFound(w, r)
	}
}

// get fetches url and returns its body.
func get(c *http.Client, url string) (string, error) {
	resp, err := c.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", url, resp.Status)
	}
	return string(b), nil
}

// drive is one client: reqs requests, every third a read.
func drive(c *http.Client, base string, id, reqs, keys int) error {
	for i := range reqs {
		key := strconv.Itoa((id*31 + i*7) % keys)
		url := base + "/add?key=" + key + "&n=" + strconv.Itoa(i%5+1)
		if i%3 == 2 {
			url = base + "/get?key=" + key
		}
		if _, err := get(c, url); err != nil {
			return err
		}
	}
	return nil
}

func run(clients, reqs, keys int) (string, error) {
	store := NewStore()
	srv := httptest.NewServer(store)
	defer srv.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	errs := make(chan error, clients)
	for id := range clients {
		go func() { errs <- drive(c, srv.URL, id, reqs, keys) }()
	}
	for range clients {
		if err := <-errs; err != nil {
			return "", err
		}
	}
	return get(c, srv.URL+"/total")
}

func main() {
	clients := flag.Int("clients", 8, "client goroutines")
	reqs := flag.Int("reqs", 2000, "requests per client")
	keys := flag.Int("keys", 64, "distinct keys")
	flag.Parse()
	total, err := run(*clients, *reqs, *keys)
	if err != nil {
		fmt.Fprintln(os.Stderr, "httphandler:", err)
		os.Exit(1)
	}
	fmt.Printf("httphandler clients=%d reqs=%d keys=%d: total, keys, adds %s\n", *clients, *reqs, *keys, total)
}
