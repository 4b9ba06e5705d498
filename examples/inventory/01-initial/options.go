package inventory

import "time"

// DefaultReservationTTL is the reservation lifetime a [Store] uses when
// [Options.ReservationTTL] is not positive.
const DefaultReservationTTL = 15 * time.Minute

// Options configures a [Store]. The zero value is ready to use.
type Options struct {
	// ReservationTTL is how long a reservation made by [Store.Reserve]
	// lasts before it expires. Zero or a negative value means
	// [DefaultReservationTTL] (15 minutes).
	ReservationTTL time.Duration
	// Now returns the current time; nil means [time.Now]. Tests set it to
	// control when reservations expire.
	Now func() time.Time
}
