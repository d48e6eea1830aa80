#!/usr/bin/env python3
"""FIT reference reader for Locker's benchmark: the same figures Locker's summary gives,
computed with the Python `fitdecode` library (pip install fitdecode).

  python3 fit_reference.py FILE.fit

Prints a JSON summary: points (record messages), elapsed_s (latest minus earliest record
timestamp), distance_m (haversine, R = 6371008.8 m, over consecutive records with a position),
device_distance_m (the last record `distance`), hr_min / hr_max. The file's CRCs are checked
(fitdecode raises on a bad one), as Locker does.
"""
import json
import math
import sys

import fitdecode

EARTH_R = 6371008.8
DEGREES = 180.0 / 2 ** 31


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_R * math.asin(min(1.0, math.sqrt(a)))


def main(path):
    points, first, last = 0, None, None
    distance, previous, device = 0.0, None, None
    hr_min, hr_max = None, None
    with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.RAISE) as reader:
        for frame in reader:
            if not isinstance(frame, fitdecode.FitDataMessage) or frame.name != "record":
                continue
            points += 1
            values = {field.name: field.value for field in frame.fields}
            stamp = values.get("timestamp")
            if stamp is not None:
                seconds = stamp.timestamp()
                first = seconds if first is None else min(first, seconds)
                last = seconds if last is None else max(last, seconds)
            lat, lon = values.get("position_lat"), values.get("position_long")
            if lat is not None and lon is not None:
                here = (lat * DEGREES, lon * DEGREES)
                if previous is not None:
                    distance += haversine(previous[0], previous[1], here[0], here[1])
                previous = here
            if values.get("distance") is not None:
                device = values["distance"]
            hr = values.get("heart_rate")
            if hr is not None:
                hr_min = hr if hr_min is None else min(hr_min, hr)
                hr_max = hr if hr_max is None else max(hr_max, hr)
    print(json.dumps({"points": points, "elapsed_s": None if first is None else last - first,
                      "distance_m": distance, "device_distance_m": device, "hr_min": hr_min, "hr_max": hr_max}))


if __name__ == "__main__":
    main(sys.argv[1])
