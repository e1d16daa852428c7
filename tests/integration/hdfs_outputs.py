"""Job outputs in HDFS, as the tests make, read and remove them: over WebHDFS with the
cluster's user name (clusters without Kerberos), at the active NameNode of an HA nameservice."""

import json
import os
import urllib.error
import urllib.request
import uuid

from jobs_on_yarn_test import cluster_user, configuration, names_a_missing_path

OUTPUTS = f"/user/{cluster_user()}/spindle-test-outputs"


def fresh_output():
    """(path, uri) of an output directory no job used before; it does not exist yet."""
    path = f"{OUTPUTS}/{uuid.uuid4().hex}"
    return path, "hdfs://" + path


def _namenodes():
    nameservice = configuration("dfs.nameservices")
    if nameservice:
        ids = configuration(f"dfs.ha.namenodes.{nameservice}").split(",")
        return [configuration(f"dfs.namenode.http-address.{nameservice}.{i}") for i in ids]
    host = configuration("fs.defaultFS").split("//")[1].split(":")[0]
    return [f"{host}:{configuration('dfs.namenode.http-address').rsplit(':', 1)[1]}"]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


def _call(path, op, method="GET", extra="", follow=True):
    """The active NameNode's answer; a standby's refusal moves on to the next NameNode."""
    opener = urllib.request.build_opener() if follow else urllib.request.build_opener(_NoRedirect)
    refused = []
    for address in _namenodes():
        url = f"http://{address}/webhdfs/v1{path}?op={op}&user.name={cluster_user()}{extra}"
        try:
            return opener.open(urllib.request.Request(url, method=method), timeout=60)
        except urllib.error.HTTPError as error:
            if error.code == 403:
                body = error.read().decode(errors="replace")
                if "StandbyException" in body:
                    refused.append(address)
                    continue
                raise urllib.error.HTTPError(url, error.code, body, error.headers, None) from None
            raise
    raise AssertionError(f"no active NameNode among {refused}")


def tree(path):
    """Every file under `path` in HDFS, by path relative to it, with its length."""
    files, pending = {}, [""]
    while pending:
        relative = pending.pop()
        with _call(path + ("/" + relative if relative else ""), "LISTSTATUS") as answer:
            listing = json.load(answer)
        for entry in listing["FileStatuses"]["FileStatus"]:
            name = (relative + "/" if relative else "") + entry["pathSuffix"]
            if entry["type"] == "DIRECTORY":
                pending.append(name)
            else:
                files[name] = entry["length"]
    return files


def read(path):
    with _call(path, "OPEN") as answer:
        return answer.read()


def download(path, directory):
    """Copies every file under `path` in HDFS into the local `directory`, keeping its layout, as a
    user fetching a job's result would; returns `directory`."""
    for name in tree(path):
        local = os.path.join(directory, name)
        os.makedirs(os.path.dirname(local), exist_ok=True)
        with open(local, "wb") as out:
            out.write(read(f"{path}/{name}"))
    return directory


def put(path, data):
    """Writes a file as WebHDFS asks: the NameNode names a DataNode, which takes the data."""
    try:
        _call(path, "CREATE", "PUT", "&overwrite=true", follow=False).close()
        raise AssertionError("the NameNode named no DataNode")
    except urllib.error.HTTPError as redirect:
        if redirect.code != 307:
            raise
        location = redirect.headers["Location"]
    with urllib.request.urlopen(urllib.request.Request(location, data=data, method="PUT"), timeout=60) as answer:
        assert answer.status == 201, answer.status


def remove(path):
    """Removes a directory and what is in it; a path already gone is fine."""
    try:
        _call(path, "DELETE", "DELETE", "&recursive=true").close()
    except urllib.error.HTTPError as error:
        if not names_a_missing_path(error):
            raise
