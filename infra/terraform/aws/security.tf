# SSH from the operator's CIDR is the only way in. The cluster's own ports (members, management API,
# the active-active result consumer, Kafka) are open only to hosts in this same group. Every rule is its own resource, so the offline
# checks (infra/tests) can read each one.
resource "aws_security_group" "bench" {
  name        = "${var.stack}-hosts"
  description = "fournines benchmark hosts: SSH from the operator, cluster ports within the group"
  vpc_id      = aws_vpc.bench.id

  tags = {
    Name = "${var.stack}-hosts"
  }
}

locals {
  # port name -> port, each opened to the group itself only
  cluster_ports = {
    member     = var.member_port
    management = var.management_port
    consumer   = var.consumer_port
    kafka      = var.kafka_port
    controller = var.kafka_controller_port
  }
}

resource "aws_vpc_security_group_ingress_rule" "ssh_from_operator" {
  security_group_id = aws_security_group.bench.id
  description       = "SSH from the operator"
  ip_protocol       = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_ipv4         = var.operator_cidr

  lifecycle {
    precondition {
      condition     = tonumber(split("/", var.operator_cidr)[1]) >= var.operator_cidr_min_prefix
      error_message = "operator_cidr ${var.operator_cidr} is wider than a /${var.operator_cidr_min_prefix}: that many addresses may try SSH. Give your own address (/32) or your network's; to allow it anyway, set operator_cidr_min_prefix = 0 (OPERATOR_CIDR_WIDE=1)."
    }
  }
}

resource "aws_vpc_security_group_ingress_rule" "cluster_port_within_group" {
  for_each = local.cluster_ports

  security_group_id            = aws_security_group.bench.id
  description                  = "${each.key} port, from hosts of this group only"
  ip_protocol                  = "tcp"
  from_port                    = each.value
  to_port                      = each.value
  referenced_security_group_id = aws_security_group.bench.id
}

resource "aws_vpc_security_group_ingress_rule" "ntp_within_group" {
  security_group_id            = aws_security_group.bench.id
  description                  = "chrony between hosts of this group (the members may use each other as peers)"
  ip_protocol                  = "udp"
  from_port                    = 123
  to_port                      = 123
  referenced_security_group_id = aws_security_group.bench.id
}

# Out: packages, the JDK, Kafka jars, and the Amazon Time Sync Service (a link-local address).
resource "aws_vpc_security_group_egress_rule" "all_out" {
  security_group_id = aws_security_group.bench.id
  description       = "everything out"
  ip_protocol       = "-1"
  cidr_ipv4         = "0.0.0.0/0"
}
