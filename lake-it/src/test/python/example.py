"""The README's "Connect: pyarrow" example, run by the pyarrow client suite (test_pyarrow_client.ReadmeExample)."""

import sys


def main(url="grpc://127.0.0.1:32010", user="lake", password="lake", table="trips"):
    # --- example ---
    import pandas as pd
    import pyarrow as pa
    from lake_flightsql import LakeClient, REPLACE  # lake-it/src/test/python/lake_flightsql.py

    with LakeClient(url, user, password) as lake:  # e.g. grpc://127.0.0.1:32010, user lake / lake
        trips = pd.DataFrame({"id": pd.array([1, 2, None], dtype="Int64"),
                              "city": pd.Categorical(["Oslo", "Rome", "Oslo"]),
                              "fare": [12.5, 30.0, 7.25]})
        lake.ingest(table, pa.Table.from_pandas(trips, preserve_index=False), mode=REPLACE)  # bulk ingest

        frame = lake.query(f"SELECT * FROM {table}").to_pandas()  # stored types and pandas dtypes come back
        assert str(frame["id"].dtype) == "Int64"

        by_city = lake.query(f"SELECT city, SUM(fare) AS total FROM {table} GROUP BY city ORDER BY city")
        print(by_city.to_pandas())

        rows = pa.table({"city": ["Oslo", "Rome"]})  # a prepared statement runs once per parameter row
        fares = lake.execute(f"SELECT city, fare FROM {table} WHERE city = ? ORDER BY fare", rows)
        print(fares.to_pylist())
    # --- end ---
    return frame, by_city, fares


if __name__ == "__main__":
    main(*sys.argv[1:])
