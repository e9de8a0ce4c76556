/*
 * A small single-threaded epoll HTTP/1.1 keep-alive server that answers every request after a
 * fixed delay, given in microseconds: a server whose latency is known to the microsecond, so a
 * 2.0 ms and a 2.2 ms build differ by exactly 10% (bench/verdict_noise.ts). Like hello_epoll.c,
 * requests are counted by their blank line (bodies are not supported) and pipelined or partial
 * requests are handled by keeping the unfinished tail.
 *
 * Each request is due its delay after the read that completed it (CLOCK_MONOTONIC). With one fixed
 * delay, due times follow the order requests arrive in, so the pending responses are a FIFO sorted
 * by due time; one timerfd (absolute CLOCK_MONOTONIC, timer slack 1 ns) is armed for the oldest.
 * A timer wake-up comes 30-100 us late on the study's VM, so the timer is armed SPIN_US early (50
 * by default) and the server spins on the clock for what is left: measured at 2k/s on a loaded
 * machine, responses left at their due time at the median and within 70 us at p90 (35 and 90-300
 * us without the spin), for the same CPU; the tail beyond is the scheduler holding the server off
 * its core. Responses on one connection leave in the order they were asked for. A connection
 * closed before its responses are due is skipped by its generation number.
 *
 * Build: cc -O2 -o /tmp/delay_epoll bench/servers/delay_epoll.c
 * Run:   taskset -c 0 /tmp/delay_epoll 18080 2000 [SPIN_US]  (port, delay in us; 127.0.0.1 only)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_EVENTS 256
#define BUF_BYTES 16384
#define MAX_FDS 65536

static const char RESPONSE[] =
    "HTTP/1.1 200 OK\r\nContent-Length: 6\r\nContent-Type: text/plain\r\n\r\nhello\n";
#define RESPONSE_BYTES (sizeof(RESPONSE) - 1)

struct conn {
  char in[BUF_BYTES];
  size_t in_len;
  char *out; /* unsent responses, when a write would block */
  size_t out_len;
  uint64_t gen;  /* which connection this fd is now: stale queue entries are skipped */
  int want_out;  /* EPOLLOUT is registered */
};

/* One response to send: to connection `fd` of generation `gen`, at `due_ns`. */
struct pending {
  uint64_t due_ns;
  uint64_t gen;
  int fd;
};

static struct conn *conns[MAX_FDS];
static uint64_t next_gen = 1;
static uint64_t spin_ns = 50000;

/* The FIFO of pending responses (a ring buffer, grown when full), oldest first. */
static struct pending *queue;
static size_t q_cap, q_head, q_len;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int push(struct pending p) {
  if (q_len == q_cap) {
    size_t cap = q_cap ? q_cap * 2 : 1024;
    struct pending *grown = malloc(cap * sizeof *grown);
    if (!grown) return -1;
    for (size_t i = 0; i < q_len; i++) grown[i] = queue[(q_head + i) % q_cap];
    free(queue);
    queue = grown;
    q_cap = cap;
    q_head = 0;
  }
  queue[(q_head + q_len) % q_cap] = p;
  q_len++;
  return 0;
}

/* Arms the timer spin_ns before the oldest pending response is due (absolute time; a past time
 * fires at once). */
static void arm(int tfd) {
  if (q_len == 0) return;
  uint64_t due = queue[q_head].due_ns;
  due = due > spin_ns ? due - spin_ns : 1;
  struct itimerspec its = {0};
  its.it_value.tv_sec = (time_t)(due / 1000000000u);
  its.it_value.tv_nsec = (long)(due % 1000000000u);
  if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0) its.it_value.tv_nsec = 1;
  timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

static void drop(int epfd, int fd) {
  epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
  close(fd);
  if (conns[fd]) {
    free(conns[fd]->out);
    free(conns[fd]);
    conns[fd] = NULL;
  }
}

/* Writes c->out; returns -1 on error. Leaves the rest queued (EPOLLOUT) when the socket is full. */
static int flush(int epfd, int fd, struct conn *c) {
  size_t sent = 0;
  while (sent < c->out_len) {
    ssize_t n = write(fd, c->out + sent, c->out_len - sent);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) break;
      return -1;
    }
    sent += (size_t)n;
  }
  memmove(c->out, c->out + sent, c->out_len - sent);
  c->out_len -= sent;
  int want = c->out_len > 0;
  if (want == c->want_out) return 0;
  c->want_out = want;
  struct epoll_event ev = {.events = EPOLLIN | (want ? EPOLLOUT : 0), .data.fd = fd};
  return epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev);
}

/* Counts complete request heads in c->in, keeps the unfinished tail, queues one response each. */
static int on_readable(int fd, struct conn *c, uint64_t delay_ns, int tfd) {
  for (;;) {
    ssize_t n = read(fd, c->in + c->in_len, BUF_BYTES - c->in_len);
    if (n == 0) return -1;
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) break;
      return -1;
    }
    uint64_t due = now_ns() + delay_ns;
    c->in_len += (size_t)n;
    size_t start = 0, requests = 0;
    for (size_t i = 3; i < c->in_len; i++) {
      if (c->in[i] == '\n' && c->in[i - 1] == '\r' && c->in[i - 2] == '\n' &&
          c->in[i - 3] == '\r') {
        requests++;
        start = i + 1;
      }
    }
    memmove(c->in, c->in + start, c->in_len - start);
    c->in_len -= start;
    if (c->in_len == BUF_BYTES) return -1; /* a head longer than the buffer */
    int was_empty = q_len == 0;
    for (size_t r = 0; r < requests; r++) {
      if (push((struct pending){.due_ns = due, .gen = c->gen, .fd = fd}) < 0) return -1;
    }
    if (was_empty && requests > 0) arm(tfd);
  }
  return 0;
}

/* Spins until the oldest response is due (at most spin_ns), sends every response that is due,
 * then arms the timer for the next. */
static void on_timer(int epfd, int tfd) {
  uint64_t expirations;
  while (read(tfd, &expirations, sizeof expirations) > 0) {
  }
  uint64_t now = now_ns();
  if (q_len > 0 && queue[q_head].due_ns > now && queue[q_head].due_ns - now <= spin_ns) {
    while ((now = now_ns()) < queue[q_head].due_ns) {
    }
  }
  while (q_len > 0 && queue[q_head].due_ns <= now) {
    struct pending p = queue[q_head];
    q_head = (q_head + 1) % q_cap;
    q_len--;
    struct conn *c = conns[p.fd];
    if (!c || c->gen != p.gen) continue; /* closed since */
    char *out = realloc(c->out, c->out_len + RESPONSE_BYTES);
    if (!out) {
      drop(epfd, p.fd);
      continue;
    }
    c->out = out;
    memcpy(c->out + c->out_len, RESPONSE, RESPONSE_BYTES);
    c->out_len += RESPONSE_BYTES;
    /* Several due at once on one connection go out in one write: flush after the last. */
    int more_here = q_len > 0 && queue[q_head].fd == p.fd && queue[q_head].gen == p.gen &&
                    queue[q_head].due_ns <= now;
    if (!more_here && flush(epfd, p.fd, c) < 0) drop(epfd, p.fd);
  }
  arm(tfd);
}

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: %s PORT DELAY_US [SPIN_US]\n", argv[0]);
    return 2;
  }
  char *end;
  long delay_us = strtol(argv[2], &end, 10);
  if (*end != '\0' || delay_us < 0 || delay_us > 60000000) {
    fprintf(stderr, "DELAY_US: `%s` is not a whole number of microseconds (0 to 60000000)\n",
            argv[2]);
    return 2;
  }
  uint64_t delay_ns = (uint64_t)delay_us * 1000u;
  if (argc == 4) {
    long spin_us = strtol(argv[3], &end, 10);
    if (*end != '\0' || spin_us < 0 || spin_us > 10000) {
      fprintf(stderr, "SPIN_US: `%s` is not a whole number of microseconds (0 to 10000)\n",
              argv[3]);
      return 2;
    }
    spin_ns = (uint64_t)spin_us * 1000u;
  }
  signal(SIGPIPE, SIG_IGN);
  prctl(PR_SET_TIMERSLACK, 1UL); /* the timer wakes when due, not up to 50 us later */
  int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1]))};
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(lfd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(lfd, 1024) < 0) {
    perror("listen");
    return 1;
  }
  int epfd = epoll_create1(0);
  int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
  if (epfd < 0 || tfd < 0) {
    perror("epoll/timerfd");
    return 1;
  }
  struct epoll_event ev = {.events = EPOLLIN, .data.fd = lfd};
  epoll_ctl(epfd, EPOLL_CTL_ADD, lfd, &ev);
  struct epoll_event tev = {.events = EPOLLIN, .data.fd = tfd};
  epoll_ctl(epfd, EPOLL_CTL_ADD, tfd, &tev);
  struct epoll_event events[MAX_EVENTS];
  for (;;) {
    int ready = epoll_wait(epfd, events, MAX_EVENTS, -1);
    if (ready < 0 && errno != EINTR) return 1;
    for (int i = 0; i < ready; i++) {
      int fd = events[i].data.fd;
      if (fd == tfd) {
        on_timer(epfd, tfd);
        continue;
      }
      if (fd == lfd) {
        int cfd;
        while ((cfd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
          if (cfd >= MAX_FDS) {
            close(cfd);
            continue;
          }
          setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          conns[cfd] = calloc(1, sizeof(struct conn));
          struct epoll_event cev = {.events = EPOLLIN, .data.fd = cfd};
          if (!conns[cfd] || epoll_ctl(epfd, EPOLL_CTL_ADD, cfd, &cev) < 0) {
            drop(epfd, cfd);
            continue;
          }
          conns[cfd]->gen = next_gen++;
        }
        continue;
      }
      struct conn *c = conns[fd];
      if (!c) continue;
      int failed = (events[i].events & (EPOLLERR | EPOLLHUP)) != 0;
      if (!failed && (events[i].events & EPOLLOUT)) failed = flush(epfd, fd, c) < 0;
      if (!failed && (events[i].events & EPOLLIN)) failed = on_readable(fd, c, delay_ns, tfd) < 0;
      if (failed) drop(epfd, fd);
    }
  }
}
