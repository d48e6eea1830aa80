#!/usr/bin/env python3
"""Streaming reference reader for workout files, used to check and time Locker's parser.

  python3 reference.py FILE... [--join-segments | --split-tracks] [--time]

Reads GPX 1.0/1.1, TCX, Locker's JSON ({"points": [...]}) or the original app's JSON
([[lat, lon, hr], ...]) and prints a JSON summary:

  points      every GPX trkpt / TCX Trackpoint / JSON point, with or without a position
  elapsed_s   last timestamp minus first timestamp, pauses included (null without times)
  distance_m  haversine (R = 6371008.8 m) summed over consecutive points that have a position;
              a point without a position is skipped, not a break. The chain restarts at each
              GPX trkseg (unless --join-segments). TCX Laps/Tracks are splits of one
              continuous recording, so they are joined (unless --split-tracks).
  segments    the number of GPX trkseg / TCX Track elements
  hr_min / hr_avg / hr_max   over the points that carry a heart rate

XML is matched by local element name only (gpxtpx:hr, ns3:hr and HeartRateBpm/Value all
work) and read with ElementTree.iterparse, dropping each point once it has been counted, so
memory stays flat on any file size. --time adds the wall-clock parse time to the summary.
"""
import argparse
import datetime
import json
import math
import sys
import time
import xml.etree.ElementTree as ET

EARTH_R = 6371008.8  # mean Earth radius in metres (IUGG)


def local(tag):
    """'{namespace}name' -> 'name'."""
    return tag.rpartition("}")[2]


def parse_time(text):
    """ISO 8601 -> seconds since the epoch (float), or None if unreadable."""
    if not text:
        return None
    text = text.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        value = datetime.datetime.fromisoformat(text)
    except ValueError:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.timezone.utc)
    return value.timestamp()


def to_float(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


class Summary:
    """Accumulates the figures point by point."""

    def __init__(self, join_segments, split_tracks):
        self.join = join_segments
        self.split_tracks = split_tracks
        self.points = self.with_pos = self.with_time = self.with_hr = 0
        self.segments = 0
        self.distance = 0.0
        self.prev = None            # (lat, lon) in radians of the last positioned point
        self.first_t = self.last_t = None
        self.equal_times = self.backwards = self.gaps_10 = 0
        self.longest_gap = 0.0
        self.hr_min = self.hr_max = None
        self.hr_sum = 0.0

    def new_segment(self, tcx_track=False):
        self.segments += 1
        if (self.split_tracks if tcx_track else not self.join):
            self.prev = None

    def add(self, lat, lon, t, hr):
        self.points += 1
        if lat is not None and lon is not None:
            self.with_pos += 1
            p = (math.radians(lat), math.radians(lon))
            if self.prev is not None:
                self.distance += haversine(self.prev, p)
            self.prev = p
        if t is not None:
            self.with_time += 1
            if self.last_t is not None:
                dt = t - self.last_t
                if dt == 0:
                    self.equal_times += 1
                elif dt < 0:
                    self.backwards += 1
                elif dt > 10:
                    self.gaps_10 += 1
                self.longest_gap = max(self.longest_gap, dt)
            if self.first_t is None:
                self.first_t = t
            self.last_t = t
        if hr is not None:
            self.with_hr += 1
            self.hr_sum += hr
            self.hr_min = hr if self.hr_min is None else min(self.hr_min, hr)
            self.hr_max = hr if self.hr_max is None else max(self.hr_max, hr)

    def result(self, path, fmt):
        elapsed = None if self.first_t is None else round(self.last_t - self.first_t, 3)
        return {
            "file": path, "format": fmt,
            "points": self.points, "points_with_position": self.with_pos,
            "points_with_time": self.with_time, "points_with_hr": self.with_hr,
            "segments": self.segments,
            "elapsed_s": elapsed,
            "distance_m": round(self.distance, 1),
            "hr_min": number(self.hr_min), "hr_max": number(self.hr_max),
            "hr_avg": round(self.hr_sum / self.with_hr, 2) if self.with_hr else None,
            "equal_timestamps": self.equal_times, "backwards_timestamps": self.backwards,
            "gaps_over_10s": self.gaps_10,
            "longest_gap_s": round(self.longest_gap, 3) if self.with_time > 1 else None,
        }


def number(x):
    """Prints 171.0 as 171."""
    return int(x) if x is not None and float(x).is_integer() else x


def haversine(a, b):
    (la1, lo1), (la2, lo2) = a, b
    h = (math.sin((la2 - la1) / 2) ** 2
         + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2)
    return 2 * EARTH_R * math.asin(math.sqrt(min(1.0, h)))


# ---------------------------------------------------------------- XML

def read_xml(f, path, summary):
    """GPX and TCX in one streaming pass; returns 'gpx' or 'tcx'."""
    fmt = None
    stack = []                      # open elements, to detach finished points from parents
    for event, elem in ET.iterparse(f, events=("start", "end")):
        name = local(elem.tag)
        if event == "start":
            stack.append(elem)
            if fmt is None:
                fmt = {"gpx": "gpx", "TrainingCenterDatabase": "tcx"}.get(name)
                if fmt is None:
                    raise SystemExit("%s: not GPX or TCX (root <%s>)" % (path, name))
            if name == "trkseg":
                summary.new_segment()
            elif name == "Track":
                summary.new_segment(tcx_track=True)
            continue
        stack.pop()
        if name == "trkpt":
            gpx_point(elem, summary)
        elif name == "Trackpoint":
            tcx_point(elem, summary)
        else:
            continue
        elem.clear()                # free the point's subtree ...
        if stack:
            stack[-1].remove(elem)  # ... and the empty shell left in its parent
    return fmt


def gpx_point(elem, summary):
    lat, lon = to_float(elem.get("lat")), to_float(elem.get("lon"))
    t = hr = None
    for child in elem.iter():
        name = local(child.tag)
        if name == "time" and t is None:
            t = parse_time(child.text)
        elif name in ("hr", "heartrate") and hr is None:
            hr = to_float(child.text)
    summary.add(lat, lon, t, hr)


def tcx_point(elem, summary):
    lat = lon = t = hr = None
    for child in elem:
        name = local(child.tag)
        if name == "Time":
            t = parse_time(child.text)
        elif name == "Position":
            for part in child:
                if local(part.tag) == "LatitudeDegrees":
                    lat = to_float(part.text)
                elif local(part.tag) == "LongitudeDegrees":
                    lon = to_float(part.text)
        elif name == "HeartRateBpm":
            for part in child:
                if local(part.tag) == "Value":
                    hr = to_float(part.text)
    summary.add(lat, lon, t, hr)


# ---------------------------------------------------------------- JSON

def read_json(f, summary):
    data = json.loads(f.read())
    summary.new_segment()
    if isinstance(data, list):      # the original app: [[lat, lon, hr], ...], no time
        for p in data:
            p = list(p) + [None] * (3 - len(p))
            summary.add(num(p[0]), num(p[1]), None, num(p[2]))
        return "triples"
    for p in data.get("points", []):
        summary.add(num(p.get("lat")), num(p.get("lon")), parse_time(p.get("time")),
                    num(p.get("hr")))
    return "locker-json"


def num(x):
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None


# ---------------------------------------------------------------- main

def summarise(path, join_segments=False, split_tracks=False):
    summary = Summary(join_segments, split_tracks)
    with open(path, "rb") as f:     # peek (not read) so pipes such as /dev/stdin work too
        head = f.peek(4096)[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
        if head.startswith(b"<"):
            fmt = read_xml(f, path, summary)
        elif head[:1] in (b"[", b"{"):
            fmt = read_json(f, summary)
        else:
            raise SystemExit("%s: unknown format (FIT and other binary files are not read)"
                             % path)
    return summary.result(path, fmt)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--join-segments", action="store_true",
                        help="GPX: sum distance across trkseg boundaries too")
    parser.add_argument("--split-tracks", action="store_true",
                        help="TCX: restart the distance at each Track (Lap)")
    parser.add_argument("--time", action="store_true", help="add parse_s (wall clock)")
    args = parser.parse_args()
    for path in args.files:
        started = time.perf_counter()
        result = summarise(path, args.join_segments, args.split_tracks)
        if args.time:
            result["parse_s"] = round(time.perf_counter() - started, 3)
        json.dump(result, sys.stdout)
        sys.stdout.write("\n")


if __name__ == "__main__":
    main()
