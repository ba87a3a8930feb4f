"""What the cloud and cluster CLIs' commands do (aws, gcloud, gsutil, bq, az, kubectl), read once
for the guards that judge them: an identity's permissions or credentials written (IAM: ``aws iam
attach-user-policy``, ``gcloud projects add-iam-policy-binding``, ``az role assignment create``,
``kubectl create clusterrolebinding``) and a request made as another user (``kubectl --as``) for
privilege_escalation; data shared with another account or the public (``aws ec2
modify-snapshot-attribute ... Add``, ``put-bucket-acl --acl public-read``) for remote_code; and the
teardown verbs that are not ``delete`` (``aws kms schedule-key-deletion``, ``cloudtrail stop-logging``,
``az keyvault secret purge``, ``gcloud storage rm -r``) for infra_destructive.

Each reads the CLI's command path (its leading subcommand words) through a frozenset by the
command's name: a rule costs nothing to the git and npm of every day. HackTricks Cloud's
privilege-escalation pages list these as the ways an identity takes more than it was given
(tests/guards/build_fresh13.py)."""

from __future__ import annotations

from forge_hookd.guards.base import AWS_VALUED, KUBE_VALUED, operands, without_values
from forge_hookd.shell.commands import option_values
from forge_hookd.shell.lazyre import Lazy


def command_path(name: str, args: list[str]) -> list[str]:
    """The CLI's subcommand words and operands, its global options' values aside."""
    valued = AWS_VALUED if name == "aws" else KUBE_VALUED if name in ("kubectl", "oc") else frozenset()
    return operands(without_values(args, valued))


# == IAM: an identity's permissions or credentials written =========================================

#: aws iam's verbs that grant a policy, a key, a password, a group or a trust to an identity
_AWS_IAM_WRITES = frozenset({
    "attach-user-policy", "attach-role-policy", "attach-group-policy", "put-user-policy", "put-role-policy",
    "put-group-policy", "create-access-key", "create-login-profile", "update-login-profile", "add-user-to-group",
    "create-policy-version", "set-default-policy-version", "update-assume-role-policy", "create-user",
    "upload-ssh-public-key", "create-service-specific-credential", "add-role-to-instance-profile",
    "update-access-key"})
#: any aws service's verbs that let another principal in: a KMS grant or key policy, a resource
#: policy (Secrets Manager, ECR, Lambda, SNS, SQS, S3's bucket policy), EKS's access entries,
#: Identity Center's assignments, Cognito's groups and passwords
_AWS_GRANTS = frozenset({
    "create-grant", "put-key-policy", "put-resource-policy", "add-permission", "add-layer-version-permission",
    "set-repository-policy", "put-registry-policy", "put-bucket-policy", "create-access-entry",
    "associate-access-policy", "create-account-assignment", "admin-add-user-to-group", "admin-set-user-password"})
#: az's command paths that grant a role, a credential, a membership, an account or a vault's access
_AZ_GRANTS = (("role", "assignment", "create"), ("role", "assignment", "update"), ("ad", "sp", "credential", "reset"),
              ("ad", "app", "credential", "reset"), ("ad", "group", "member", "add"), ("ad", "user", "create"),
              ("keyvault", "set-policy"), ("vm", "user", "update"), ("vm", "user", "reset-ssh"),
              ("ad", "app", "permission", "grant"), ("ad", "app", "permission", "admin-consent"))
#: the cluster roles whose binding hands over the namespace or the cluster
_KUBE_ADMIN_ROLES = frozenset({"cluster-admin", "admin"})


def grants_access(name: str, args: list[str]) -> str | None:
    """What an IAM write gives (``attaches a policy to an identity``), or None."""
    path = command_path(name, args)
    if name == "aws" and len(path) > 1:
        if path[0] == "iam" and path[1] in _AWS_IAM_WRITES or path[1] in _AWS_GRANTS:
            return f"writes who may do what in the AWS account (aws {path[0]} {path[1]})"
    elif name == "gcloud":
        if "add-iam-policy-binding" in path[:4] or "set-iam-policy" in path[:4]:
            return "binds a role to an identity in Google Cloud (IAM policy)"
        if path[:4] == ["iam", "service-accounts", "keys", "create"]:
            return "makes a new key for a service account (its credential, valid until deleted)"
        if path[:3] == ["iam", "roles", "update"]:
            return "adds permissions to a role every holder of it gets"
        if path[1:2] == ["add-metadata"] or path[2:3] == ["add-metadata"]:
            if any("ssh-keys" in a or "ssh_keys" in a for a in args):
                return "puts an SSH key on a VM's or the project's metadata (a login made)"
    elif name == "gsutil" and path[:2] in (["iam", "ch"], ["iam", "set"], ["acl", "ch"], ["acl", "set"],
                                           ["defacl", "ch"], ["defacl", "set"]):
        return f"changes who may read or write a bucket (gsutil {path[0]} {path[1]})"
    elif name == "az":
        if any(tuple(path[:len(g)]) == g for g in _AZ_GRANTS):
            return "grants an Azure role, credential, membership or access"
        if any(v in ("blob", "container") for v in option_values(args, "--public-access", "--public-access")):
            return "opens an Azure storage container to everyone (--public-access)"
    elif name in ("kubectl", "oc"):
        return _kube_grant(args, path)
    return None


def _kube_grant(args: list[str], path: list[str]) -> str | None:
    """``kubectl create clusterrolebinding``, a binding to an admin role, a request made as another
    user or group (``--as``, ``--as-group=system:masters``), the EKS mapping of cloud identities
    (``edit configmap/aws-auth``); ``kubectl auth can-i --as X`` only asks the question."""
    if path[:2] == ["create", "clusterrolebinding"] or path[:2] == ["create", "rolebinding"] and \
            set(option_values(args, "--clusterrole", "--clusterrole")) & _KUBE_ADMIN_ROLES:
        return "binds a Kubernetes role to an account (" + ", ".join(option_values(args, "--clusterrole", "--clusterrole")) or "cluster-wide" + ")"
    impersonates = [a for a in args if a.startswith(("--as=", "--as-group=", "--as-uid="))] + \
        [f"{a} {args[k + 1]}" for k, a in enumerate(args[:-1]) if a in ("--as", "--as-group", "--as-uid")]
    if impersonates and path[:1] != ["auth"]:
        return f"acts as another user or group ({impersonates[0]}): impersonation takes their privileges"
    if path[:1] in (["edit"], ["patch"], ["replace"], ["apply"]) and any("aws-auth" in p for p in path[1:]):
        return "changes which cloud identities are the cluster's users and groups (aws-auth)"
    return None


# == Shared with another account or the public ======================================================

#: aws's verbs that change who may use a snapshot, an image or an object, and the words that add someone
_AWS_SHARES = frozenset({"modify-snapshot-attribute", "modify-db-snapshot-attribute", "modify-image-attribute",
                         "modify-db-cluster-snapshot-attribute", "put-bucket-acl", "put-object-acl"})
#: (``Add=[{UserId=...}]``, ``--values-to-add all``, ``--operation-type add``, a canned ACL or a grant to everyone)
_ADDS = Lazy(r"^Add=|^--values-to-add$|^add$|^public-read(?:-write)?$|^authenticated-read$|AllUsers|AuthenticatedUsers")


def shares_out(name: str, args: list[str]) -> str | None:
    """A disk's snapshot, an image, a database snapshot or an object given to another account or
    the public (``--create-volume-permission "Add=[{UserId=...}]"``, ``--values-to-add all``,
    ``--acl public-read``), or None (``Remove=``, ``--values-to-remove``, ``--acl private``)."""
    if name != "aws":
        return None
    path = command_path(name, args)
    if len(path) < 2 or path[1] not in _AWS_SHARES:
        return None
    if any(_ADDS.search(a) for a in args):
        return f"shares AWS data with another account or the public (aws {path[0]} {path[1]})"
    return None


# == Teardown verbs that are not delete ============================================================

#: aws verbs that destroy data without saying delete: a key scheduled for deletion or disabled
#: (everything encrypted with it unreadable), the audit trail stopped, the account leaving its organization
_AWS_SWITCH_OFF = frozenset({"schedule-key-deletion", "disable-key", "stop-logging", "leave-organization"})


def switches_off(name: str, args: list[str]) -> str | None:
    """What a teardown verb other than ``delete`` destroys, or None."""
    path = command_path(name, args)
    if name == "aws" and len(path) > 1 and path[1] in _AWS_SWITCH_OFF:
        return f"destroys or blinds an AWS resource (aws {path[0]} {path[1]})"
    if name == "az" and "purge" in path[:4]:
        return "purges an Azure resource for good (no soft-deleted copy is left)"
    if name == "gcloud" and path[:2] == ["storage", "rm"]:
        return "deletes cloud storage objects"
    if name == "gcloud" and path[:1] == ["kms"] and "versions" in path[:4] and "disable" in path[:5]:
        return "disables a key version: its ciphertexts become unreadable"
    if name == "bq" and path[:1] == ["rm"]:
        return "removes a BigQuery dataset or table"
    return None
