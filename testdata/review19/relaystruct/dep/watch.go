// Package watch runs a callback for each event received from a channel
// it is given inside a Config.
package watch

type Config struct {
	Events <-chan int
	Buffer int
}

func Watch(cfg Config, on func(int)) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for v := range cfg.Events {
			on(v)
		}
	}()
	return done
}
