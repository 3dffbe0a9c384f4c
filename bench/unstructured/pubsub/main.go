// Command pubsub is the unstructured kernel of a pub/sub fan-out: a broker
// goroutine owns the subscriptions (subscribe requests and messages reach
// it over channels, in a select), -subs subscribers each read their own
// buffered channel, and -pubs publishers send -msgs messages each on
// -topics topics. A message is a pointer every subscriber of its topic
// reads; a subscriber keeps per-topic counts in a struct of its own. The
// broker closes the subscribers' channels when the publishers are done.
// It prints a checksum.
package main

import (
	"flag"
	"fmt"
	"slices"
	"sync"
)

// Message is what publishers publish: read-only once sent.
type Message struct {
	Topic   int
	Seq     int
	Payload []byte
}

type subscribeReq struct {
	topics []int
	ch     chan *Message
	ack    chan struct{}
}

// Broker routes messages to the subscribers of their topic.
type Broker struct {
	publish   chan *Message
	subscribe chan subscribeReq
	done      chan struct{}
}

func NewBroker() *Broker {
	b := &Broker{
		publish:   make(chan *Message, 64),
		subscribe: make(chan subscribeReq),
		done:      make(chan struct{}),
	}
	go b.loop()
	return b
}

func (b *Broker) loop() {
	defer close(b.done)
	subs := map[int][]chan *Message{}
	var all []chan *Message
	for {
		select {
		case req := <-b.subscribe:
			for _, t := range req.topics {
				subs[t] = append(subs[t], req.ch)
			}
			all = append(all, req.ch)
			close(req.ack)
		case m, ok := <-b.publish:
			if !ok {
				for _, ch := range all {
					close(ch)
				}
				return
			}
			for _, ch := range subs[m.Topic] {
				ch <- m
			}
		}
	}
}

// Subscribe returns a channel of the messages on the given topics; it is
// closed when the broker shuts down.
func (b *Broker) Subscribe(topics []int, buffer int) <-chan *Message {
	req := subscribeReq{topics: topics, ch: make(chan *Message, buffer), ack: make(chan struct{})}
	b.subscribe <- req
	<-req.ack
	return req.ch
}

func (b *Broker) Publish(m *Message) { b.publish <- m }

// Close stops the broker once every published message is delivered.
func (b *Broker) Close() {
	close(b.publish)
	<-b.done
}

// tally is one subscriber's state.
type tally struct {
	perTopic map[int]int
	sum      uint64
}

func consume(in <-chan *Message) *tally {
	t := &tally{perTopic: map[int]int{}}
	for m := range in {
		t.perTopic[m.Topic]++
		h := uint64(m.Seq)
		for _, b := range m.Payload {
			h = h*31 + uint64(b)
		}
		t.sum += h
	}
	return t
}

func payload(pub, seq int) []byte {
	p := make([]byte, 32)
	x := uint32(pub*7919 + seq)
	for i := range p {
		x = x*1664525 + 1013904223
		p[i] = byte(x >> 24)
	}
	return p
}

// topicsOf is subscriber s's topics: two or three of them.
func topicsOf(s, topics int) []int {
	ts := []int{s % topics, (s*7 + 3) % topics}
	if s%3 == 0 {
		ts = append(ts, (s+topics/2)%topics)
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}

// result is the checksum of a run.
type result struct {
	delivered int
	sum       uint64
}

func run(pubs, subs, msgs, topics int) result {
	b := NewBroker()
	results := make(chan *tally, subs)
	for s := range subs {
		ch := b.Subscribe(topicsOf(s, topics), 32)
		go func() { results <- consume(ch) }()
	}
	var wg sync.WaitGroup
	for p := range pubs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range msgs {
				seq := p*msgs + i
				b.Publish(&Message{Topic: seq % topics, Seq: seq, Payload: payload(p, i)})
			}
		}()
	}
	wg.Wait()
	b.Close()
	var r result
	for range subs {
		t := <-results
		for _, n := range t.perTopic {
			r.delivered += n
		}
		r.sum += t.sum
	}
	return r
}

func main() {
	pubs := flag.Int("pubs", 4, "publishers")
	subs := flag.Int("subs", 16, "subscribers")
	msgs := flag.Int("msgs", 120000, "messages per publisher")
	topics := flag.Int("topics", 8, "topics")
	flag.Parse()
	r := run(*pubs, *subs, *msgs, *topics)
	fmt.Printf("pubsub pubs=%d subs=%d msgs=%d topics=%d: %d deliveries, sum %016x\n", *pubs, *subs, *msgs, *topics, r.delivered, r.sum)
}
