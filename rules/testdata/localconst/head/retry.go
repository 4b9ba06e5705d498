package backoff

import (
	"errors"
	"time"
)

var errBusy = errors.New("busy")

func try() error { return errBusy }

// Listen opens the port. If it fails, it waits and retries up to 100
// times.
func Listen() error {
	var err error
	for attempts := 0; attempts < 50; attempts++ {
		if err = try(); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

const maxTries = 5

// Dial tries 5 times before it gives up.
func Dial() error {
	for i := 1; i <= maxTries; i++ {
		if err := try(); err == nil {
			return nil
		}
	}
	return errBusy
}

// Send retries 3 times: four attempts in all.
func Send() error {
	for range 4 {
		if try() == nil {
			return nil
		}
	}
	return errBusy
}

// Fill retries up to 3 times per shard.
func Fill(shards []int) error {
	for range shards {
		for i := 0; i < 8; i++ {
			if try() == nil {
				break
			}
		}
	}
	return nil
}

// Poll retries 10 times, each after a second.
func Poll() {
	for i := 0; i < 3; i++ {
		_ = try()
	}
}
