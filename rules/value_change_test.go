package rules

import (
	"cmp"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/docreview/docreview/review"
)

func TestLiteralMismatchValueChange(t *testing.T) {
	ws := loadWorkspace(t, "valuechange")
	rule := &LiteralMismatch{}
	retries := []ev{
		{"client.go", 7, 7, review.SourceCode, "defaultRetries = 5"},
		{"client.go", 7, 7, review.SourceDiff, "this diff changed defaultRetries from 3 to 5"},
	}
	timeout := []ev{
		{"client.go", 10, 10, review.SourceCode, "DefaultTimeout = 10 * time.Second"},
		{"client.go", 10, 10, review.SourceDiff, "this diff changed DefaultTimeout from 30 * time.Second to 10 * time.Second"},
	}
	header := []ev{
		{"client.go", 46, 46, review.SourceCode, "frameHeaderLen = 16"},
		{"client.go", 46, 46, review.SourceDiff, "this diff changed frameHeaderLen from 8 to 16"},
	}
	maxSizeLine := lineOf(t, ws, "client.go", "const defaultMaxSize")
	maxSize := []ev{
		{"client.go", maxSizeLine, maxSizeLine, review.SourceCode, "defaultMaxSize = 200"},
		{"client.go", maxSizeLine, maxSizeLine, review.SourceDiff, "this diff changed defaultMaxSize from 100 to 200"},
	}
	tests := []struct {
		name   string
		symbol string // a doc comment of client.go, else
		md     string // a claim of README.md containing this
		want   *want
	}{{
		name:   "the constant's own doc",
		symbol: "DefaultTimeout",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 30 seconds, but this diff changed DefaultTimeout from 30 * time.Second to 10 * time.Second (10s).",
			suggestion: "DefaultTimeout bounds a request (10 seconds).",
			evidence:   timeout,
		},
	}, {
		name:   "a field set from the constant, bare number",
		symbol: "Client.Retries",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 3, but this diff changed defaultRetries from 3 to 5, which New assigns to Client.Retries.",
			suggestion: "Retries is how many times a request is retried. Default is 5.",
			evidence:   retries,
		},
	}, {
		name:   "a field that counts megabytes, its fallback scaled to bytes",
		symbol: "Logger.MaxSize",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 100 megabytes, but this diff changed defaultMaxSize from 100 to 200, which Logger.max assigns to Logger.MaxSize.",
			suggestion: "MaxSize is the size in megabytes a log file grows to before it is\nrotated. It defaults to 200 megabytes.",
			evidence:   maxSize,
		},
	}, {
		name:   "a field set from the constant, with a unit",
		symbol: "Client.Timeout",
		want: &want{
			label:      review.Contradicted,
			message:    "which New assigns to Client.Timeout",
			suggestion: "Timeout bounds a request. It defaults to 10 seconds.",
			evidence:   timeout,
		},
	}, {
		name: "Markdown naming the constant",
		md:   "`DefaultTimeout` is 30 seconds.",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 30 seconds, but this diff changed DefaultTimeout",
			suggestion: "`DefaultTimeout` is 10 seconds.",
			evidence:   timeout,
		},
	}, {
		name: "Markdown naming a field set from the constant",
		md:   "`Client.Retries` defaults to 3.",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 3, but this diff changed defaultRetries from 3 to 5.",
			suggestion: "`Client.Retries` defaults to 5.",
			evidence:   retries,
		},
	}, {
		// The func loops defaultRetries times: its doc's bare 3 is the
		// constant's old value, with or without a default word.
		name:   "a func using the constant, in a sentence with no default word",
		symbol: "Loop",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 3 times, but this diff changed defaultRetries from 3 to 5, which Loop uses.",
			suggestion: "Loop calls f 5 times.",
			evidence:   retries,
		},
	}, {
		name:   "a func using the constant, in a sentence whose words name something else",
		symbol: "Chunk",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 8 bytes, but this diff changed frameHeaderLen from 8 to 16 (16 bytes), which Chunk uses.",
			suggestion: "Chunk splits data into pieces of 16 bytes.",
			evidence:   header,
		},
	}, {
		name: "Markdown whose words around the number name the constant",
		md:   "The client retries a request up to 3 times.",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 3 times, but this diff changed defaultRetries from 3 to 5.",
			suggestion: "The client retries a request up to 5 times.",
			evidence:   retries,
		},
	}, {
		name:   "a doc of the package whose words around the number name the constant",
		symbol: "Frame",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 8 bytes, but this diff changed frameHeaderLen from 8 to 16 (16 bytes).",
			suggestion: "Frame is one message on the wire, after the frame header (16 bytes).",
			evidence:   header,
		},
	}, {
		name: "Markdown naming the constant in words, bare number",
		md:   "Each frame starts with its header, 8 bytes long.",
		want: &want{
			label:      review.Contradicted,
			message:    "this diff changed frameHeaderLen from 8 to 16",
			suggestion: "Each frame starts with its header, 16 bytes long.",
			evidence:   header,
		},
	}, {
		name: "Markdown under a heading naming the constant's topic",
		md:   "Retries a failed request.",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 3, but this diff changed defaultRetries from 3 to 5.",
			suggestion: "Retries a failed request. The default value is 5 and may be raised.",
			evidence:   retries,
		},
	},
		{
			name:   "a func using the constant, number quoted",
			symbol: "NotFound",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc states 404, but this diff changed StatusNotFound from 404 to 808, which NotFound uses.",
				suggestion: "NotFound sets the '808 Not Found' status.",
				evidence:   []ev{{"client.go", 70, 70, review.SourceCode, "StatusNotFound = 808"}, {"client.go", 70, 70, review.SourceDiff, "this diff changed StatusNotFound from 404 to 808"}},
			},
		}, {
			name:   "the constant's own doc, bare number in a sentence that does not name it",
			symbol: "statusReserved",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc states 1004, but this diff changed statusReserved from 1004 to 2008.",
				suggestion: "2008 is reserved and so unexported.",
				evidence:   []ev{{"client.go", 73, 73, review.SourceCode, "statusReserved = 2008"}, {"client.go", 73, 73, review.SourceDiff, "this diff changed statusReserved from 1004 to 2008"}},
			},
		},
		{
			name:   "a func using the constant, in a sentence of two durations",
			symbol: "CheckIdle",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc states 3s, but this diff changed minIdle from 3 * time.Second to 2 * time.Second (2s), which CheckIdle uses.",
				suggestion: "CheckIdle corrects an idle timeout.\ndefault idle = 30s, min value is 2s",
				evidence:   []ev{{"client.go", 84, 84, review.SourceCode, "minIdle = 2 * time.Second"}, {"client.go", 84, 84, review.SourceDiff, "this diff changed minIdle from 3 * time.Second to 2 * time.Second"}},
			},
		},
		{name: "a func using the constant, whose old value another constant of the package has", symbol: "Probe"},
		{name: "Markdown whose number is an HTML attribute", md: "The frame header is drawn here"},
		{name: "a doc already stating the new value", symbol: "Client.Retry"},
		{name: "a func using the constant, in a sentence that also states the new value", symbol: "Pair"},
		{name: "a field whose default did not change", symbol: "Client.Workers"},
		{name: "Markdown under a heading naming something else", md: "Runs requests in parallel."},
		{name: "Markdown whose words name no constant", md: "The client sends 3 requests at once."},
		{name: "Markdown about the past", md: "Before v2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c review.Claim
			if tt.symbol != "" {
				c = goClaim(t, ws, "client.go", tt.symbol)
			} else {
				c = mdClaim(t, ws, "README.md", tt.md)
			}
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
	t.Run("whole-repository audit", func(t *testing.T) {
		// An audit has no diff to tell of: the doc is compared with the
		// default at head, as any field doc is.
		all := *ws
		all.Scope = review.ScopeAll
		got, err := rule.Judge(t.Context(), &all, goClaim(t, ws, "client.go", "Client.Retries"))
		if err != nil {
			t.Fatal(err)
		}
		checkVerdict(t, rule, got, &want{
			label:      review.Contradicted,
			message:    "The doc gives 3 for Client.Retries, but defaultRetries is 5.",
			suggestion: "Retries is how many times a request is retried. Default is 5.",
			evidence:   []ev{retries[0]},
		})
	})
}

// TestLiteralMismatchFieldDefaultChange covers a diff that changes the
// default a func gives a struct field (a constructor's composite literal,
// a zero-value fallback), while the field's doc and a README keep the old
// value.
func TestLiteralMismatchFieldDefaultChange(t *testing.T) {
	ws := loadWorkspace(t, "fielddefault")
	rule := &LiteralMismatch{}
	port := []ev{
		{"cluster.go", 26, 26, review.SourceCode, "Port = 9043"},
		{"cluster.go", 26, 28, review.SourceDiff, "this diff changed ClusterConfig.Port from 9042 to 9043"},
	}
	tests := []struct {
		name   string
		path   string // cluster.go unless set
		symbol string // a doc comment of path, else
		md     string // a claim of README.md containing this
		want   *want
	}{{
		name:   "a constructor's composite literal",
		symbol: "ClusterConfig.Port",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 9042, but this diff changed the default NewCluster gives ClusterConfig.Port from 9042 to 9043.",
			suggestion: "Port is the port the nodes listen on.\nDefault: 9043",
			evidence:   port,
		},
	}, {
		name:   "a zero-value fallback",
		symbol: "ClusterConfig.NumConns",
		want: &want{
			label:      review.Contradicted,
			message:    "the default ClusterConfig.fill gives ClusterConfig.NumConns from 2 to 4",
			suggestion: "NumConns is the number of connections per host.\nDefault: 4",
			evidence: []ev{
				{"cluster.go", 36, 36, review.SourceCode, "c.NumConns = 4"},
				{"cluster.go", 36, 36, review.SourceDiff, "this diff changed ClusterConfig.NumConns from 2 to 4"},
			},
		},
	}, {
		name:   "a duration in another unit",
		symbol: "ClusterConfig.Timeout",
		want: &want{
			label:      review.Contradicted,
			message:    "from 600 * time.Millisecond to 11 * time.Second (11s)",
			suggestion: "Timeout bounds a query. It defaults to 11000ms.",
			evidence: []ev{
				{"cluster.go", 27, 27, review.SourceCode, "Timeout = 11 * time.Second"},
				{"cluster.go", 26, 28, review.SourceDiff, "this diff changed ClusterConfig.Timeout from 600 * time.Millisecond to 11 * time.Second"},
			},
		},
	}, {
		name: "Markdown naming the field",
		md:   "`ClusterConfig.Port` defaults to 9042.",
		want: &want{
			label:      review.Contradicted,
			message:    "this diff changed the default NewCluster gives ClusterConfig.Port from 9042 to 9043",
			suggestion: "`ClusterConfig.Port` defaults to 9043.",
			evidence:   port,
		},
	},
		{name: "an option copied over a field whose constant changed", path: "conn.go", symbol: "ConnOptions.MaxFrame",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc states 65536, but this diff changed frameCap from 65536 to 131072, which newConn assigns to ConnOptions.MaxFrame.",
				suggestion: "MaxFrame is the largest frame the connection accepts.\n\nDefault: 131072.",
				evidence: []ev{
					{"conn.go", 3, 3, review.SourceCode, "frameCap = 131072"},
					{"conn.go", 3, 3, review.SourceDiff, "this diff changed frameCap from 65536 to 131072"},
				},
			}},
		{name: "a fallback for every value below 2, the zero value among them", symbol: "Session.Protocol",
			want: &want{
				label:   review.Contradicted,
				message: "The doc states 3, but this diff changed the default NewSession gives Session.Protocol from 3 to 4.",
				// 3 is written twice: which one to rewrite is not certain.
				suggestion: "",
				evidence: []ev{
					{"cluster.go", 56, 56, review.SourceCode, "s.Protocol = 4"},
					{"cluster.go", 56, 56, review.SourceDiff, "this diff changed Session.Protocol from 3 to 4"},
				},
			}},
		{name: "an option applied by the constructor, copied over a default it changed", path: "publish.go", symbol: "FlowControl.Flow",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc states 100, but this diff changed defaultFastFlow from 100 to 200",
				suggestion: "Flow is how many messages go out between acks.\nDefault: 200",
				evidence: []ev{
					{"publish.go", 25, 25, review.SourceCode, "defaultFastFlow = 200"},
					{"publish.go", 25, 25, review.SourceDiff, "this diff changed defaultFastFlow from 100 to 200"},
				},
			}},
		{name: "an option applied by the constructor whose default stays", path: "publish.go", symbol: "FlowControl.MaxPending"},
		{name: "a line the diff touched that keeps the value", symbol: "ClusterConfig.PageSize"},
		{name: "an assignment outside a constructor is no default", symbol: "ClusterConfig.Retries"},
		{name: "Markdown that names no field", md: "The driver opens 2 connections per host by default."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c review.Claim
			if tt.symbol != "" {
				c = goClaim(t, ws, cmp.Or(tt.path, "cluster.go"), tt.symbol)
			} else {
				c = mdClaim(t, ws, "README.md", tt.md)
			}
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

// TestLiteralMismatchGuardedCopy covers an option field whose default is
// the default of the field it is copied over when set, in an audit.
func TestLiteralMismatchGuardedCopy(t *testing.T) {
	ws := loadWorkspace(t, "fielddefault")
	all := *ws
	all.Scope = review.ScopeAll
	rule := &LiteralMismatch{}
	got, err := rule.Judge(t.Context(), &all, goClaim(t, ws, "conn.go", "ConnOptions.MaxFrame"))
	if err != nil {
		t.Fatal(err)
	}
	checkVerdict(t, rule, got, &want{
		label:      review.Contradicted,
		message:    "The doc gives 65536 for ConnOptions.MaxFrame, but the code sets maxFrame = frameCap (131072).",
		suggestion: "MaxFrame is the largest frame the connection accepts.\n\nDefault: 131072.",
		evidence:   []ev{{"conn.go", 19, 19, review.SourceCode, "maxFrame = frameCap, kept unless MaxFrame is set"}},
	})
	// The same across funcs: an option method handed the struct a
	// constructor fills with its defaults.
	got, err = rule.Judge(t.Context(), &all, goClaim(t, ws, "publish.go", "FlowControl.Flow"))
	if err != nil {
		t.Fatal(err)
	}
	checkVerdict(t, rule, got, &want{
		label:      review.Contradicted,
		message:    "The doc gives 100 for FlowControl.Flow, but the code sets flow = defaultFastFlow (200).",
		suggestion: "Flow is how many messages go out between acks.\nDefault: 200",
		evidence:   []ev{{"publish.go", 47, 47, review.SourceCode, "flow = defaultFastFlow, kept unless Flow is set (FlowControl.configurePublisher)"}},
	})
	got, err = rule.Judge(t.Context(), &all, goClaim(t, ws, "publish.go", "FlowControl.MaxPending"))
	if err != nil {
		t.Fatal(err)
	}
	checkVerdict(t, rule, got, nil)
	// A zero a builder assigns is the field left unset when the doc says
	// what omitting it means; without such words it is a default.
	got, err = rule.Judge(t.Context(), &all, goClaim(t, ws, "args.go", "KeyframeArgs.Threshold"))
	if err != nil {
		t.Fatal(err)
	}
	checkVerdict(t, rule, got, nil)
	got, err = rule.Judge(t.Context(), &all, goClaim(t, ws, "args.go", "KeyframeArgs.Limit"))
	if err != nil {
		t.Fatal(err)
	}
	checkVerdict(t, rule, got, &want{
		label:    review.Contradicted,
		message:  "The doc gives 10 for KeyframeArgs.Limit, but the code sets s.Limit = 0.",
		evidence: []ev{{"args.go", 16, 16, review.SourceCode, "s.Limit = 0"}},
	})
	// A default that adjusts another value ("maxChannels - 1") is not the
	// default of an option copied over it.
	got, err = rule.Judge(t.Context(), &all, goClaim(t, ws, "conn.go", "ChanOptions.MaxChannels"))
	if err != nil {
		t.Fatal(err)
	}
	checkVerdict(t, rule, got, nil)
}

// TestFieldDefaultsByNameSeveralPackages checks that the fields a package's
// funcs fill in are named after their owners whatever package declares
// them: a func that fills in another package's struct beside its own must
// not hide its own fields' defaults (the map of fields has no order, so the
// check is repeated).
func TestFieldDefaultsByNameSeveralPackages(t *testing.T) {
	structPkg := func(path, typeName, field string) (*types.Package, *types.Var) {
		pkg := types.NewPackage(path, path[strings.LastIndexByte(path, '/')+1:])
		f := types.NewField(token.NoPos, pkg, field, types.Typ[types.Int], false)
		tn := types.NewTypeName(token.NoPos, pkg, typeName, nil)
		types.NewNamed(tn, types.NewStruct([]*types.Var{f}, nil), nil)
		pkg.Scope().Insert(tn)
		return pkg, f
	}
	_, own := structPkg("example.com/lock", "LockerOption", "KeyMajority")
	_, other := structPkg("example.com/client", "ClientOption", "Addr")
	pv := &pkgValues{fields: map[types.Object][]valueSite{
		own:   {{val: constant.MakeInt64(2), name: "option.KeyMajority"}},
		other: {{val: constant.MakeInt64(6379), name: "opt.Addr"}},
	}}
	for range 50 {
		got := fieldDefaultsByName(pv)
		if len(got) != 2 || got["LockerOption.KeyMajority"].name != "option.KeyMajority" || got["ClientOption.Addr"].name != "opt.Addr" {
			t.Fatalf("fieldDefaultsByName = %v, want LockerOption.KeyMajority and ClientOption.Addr", got)
		}
	}
}
