// Command otlp_decoder is a receiver for OTLP/HTTP metrics that tailgate did not write: it decodes
// each POST /v1/metrics with the OpenTelemetry Collector's generated types (pdata's pmetricotlp)
// and writes the request as OTLP/JSON, one line each, to the file named by -out (stdout when
// empty). It listens on 127.0.0.1 on the port -port names (0: any free one) and prints its
// address as its first line of stdout. A body that does not decode gets 400 and nothing is written.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"

	"go.opentelemetry.io/collector/pdata/pmetric/pmetricotlp"
)

func main() {
	port := flag.Int("port", 0, "the port to listen on (0: any free one)")
	out := flag.String("out", "", "the file each request is appended to as a JSON line (stdout when empty)")
	flag.Parse()

	var sink io.Writer = os.Stdout
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "otlp_decoder:", err)
			os.Exit(1)
		}
		defer f.Close()
		sink = f
	}
	var mu sync.Mutex
	writer := bufio.NewWriter(sink)

	listener, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		fmt.Fprintln(os.Stderr, "otlp_decoder:", err)
		os.Exit(1)
	}
	fmt.Printf("listening on %s\n", listener.Addr().String())
	os.Stdout.Sync()

	mux := http.NewServeMux()
	mux.HandleFunc("/v1/metrics", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req := pmetricotlp.NewExportRequest()
		if err := req.UnmarshalProto(body); err != nil {
			http.Error(w, "malformed ExportMetricsServiceRequest: "+err.Error(), http.StatusBadRequest)
			return
		}
		js, err := req.MarshalJSON()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		mu.Lock()
		writer.Write(js)
		writer.WriteString("\n")
		err = writer.Flush()
		mu.Unlock()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		resp, err := pmetricotlp.NewExportResponse().MarshalProto()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusOK)
		w.Write(resp)
	})
	if err := http.Serve(listener, mux); err != nil {
		fmt.Fprintln(os.Stderr, "otlp_decoder:", err)
		os.Exit(1)
	}
}
