#!/bin/sh
# SAFE, as CBMC 5.1 --xml-ui prints it
echo "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
echo "<cprover><program>CBMC 5.1</program><cprover-status>SUCCESS</cprover-status></cprover>"
exit 0
